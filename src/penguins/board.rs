//! The hex board: cell numbering, the even-r layout, directions, neighbours and ray masks.
//!
//! Cell index = `row * 8 + col` (row 0 is the first input line, "row 1" in cell names), so a board
//! set fits one `u64`. Rows 0, 2, 4, 6 are shifted half a cell to the right ("even-r") and are the
//! short rows: their column 7 does not exist. The tables are built by `const fn` from `step`, the
//! slow reference, and tested against an independent axial-coordinate walk.

/// A cell index 0..64 (`row * 8 + col`).
pub type Cell = u8;

/// Marks "no cell" (an unplaced or removed penguin, a placement's origin).
pub const NO_CELL: Cell = 255;

pub const ROWS: usize = 8;
pub const COLS: usize = 8;
pub const CELLS: usize = 64;

/// The six directions, in cyclic order, so `opposite(d) == (d + 3) % 6`.
pub const E: usize = 0;
pub const NE: usize = 1;
pub const NW: usize = 2;
pub const W: usize = 3;
pub const SW: usize = 4;
pub const SE: usize = 5;
pub const DIRECTIONS: usize = 6;
pub const DIRECTION_NAMES: [&str; DIRECTIONS] = ["E", "NE", "NW", "W", "SW", "SE"];

pub const fn opposite(dir: usize) -> usize {
    (dir + 3) % DIRECTIONS
}

/// Directions that move to higher cell indices (E, SW, SE); the others move to lower ones.
pub const fn increases_index(dir: usize) -> bool {
    matches!(dir, E | SW | SE)
}

pub const fn cell_at(col: usize, row: usize) -> Cell {
    (row * COLS + col) as Cell
}

pub const fn col_of(cell: Cell) -> usize {
    cell as usize % COLS
}

pub const fn row_of(cell: Cell) -> usize {
    cell as usize / COLS
}

/// The first cell of `cells` met going in `dir` (cells of one ray from some start), if any.
pub const fn nearest_along(dir: usize, cells: u64) -> Option<Cell> {
    if cells == 0 {
        None
    } else if increases_index(dir) {
        Some(cells.trailing_zeros() as Cell)
    } else {
        Some(63 - cells.leading_zeros() as Cell)
    }
}

/// Whether (col, row) is a real cell: on the 8x8 grid and not the missing end of a short row.
pub const fn exists(col: i32, row: i32) -> bool {
    col >= 0 && row >= 0 && col < COLS as i32 && row < ROWS as i32 && !(row % 2 == 0 && col == 7)
}

/// One step from (col, row) in `dir` (the layout's definition; no bounds check).
pub const fn step(col: i32, row: i32, dir: usize) -> (i32, i32) {
    let even = row % 2 == 0;
    let (dc, dr) = match dir {
        E => (1, 0),
        W => (-1, 0),
        NE => (if even { 1 } else { 0 }, -1),
        NW => (if even { 0 } else { -1 }, -1),
        SE => (if even { 1 } else { 0 }, 1),
        _ => (if even { 0 } else { -1 }, 1), // SW
    };
    (col + dc, row + dr)
}

/// The 60 real cells.
pub const VALID: u64 = build_valid();

const fn build_valid() -> u64 {
    let mut bits = 0u64;
    let mut cell = 0;
    while cell < CELLS {
        if exists((cell % COLS) as i32, (cell / COLS) as i32) {
            bits |= 1 << cell;
        }
        cell += 1;
    }
    bits
}

/// `NEIGHBOUR[cell][dir]`: the adjacent real cell, or `NO_CELL`.
pub const NEIGHBOUR: [[Cell; DIRECTIONS]; CELLS] = build_neighbours();

const fn build_neighbours() -> [[Cell; DIRECTIONS]; CELLS] {
    let mut table = [[NO_CELL; DIRECTIONS]; CELLS];
    let mut cell = 0;
    while cell < CELLS {
        let mut dir = 0;
        while dir < DIRECTIONS {
            let (c, r) = step((cell % COLS) as i32, (cell / COLS) as i32, dir);
            if exists((cell % COLS) as i32, (cell / COLS) as i32) && exists(c, r) {
                table[cell][dir] = cell_at(c as usize, r as usize);
            }
            dir += 1;
        }
        cell += 1;
    }
    table
}

/// `RAY[dir][cell]`: every real cell reached by stepping from `cell` in `dir` until the board (or a
/// missing cell) ends, the start excluded. Rays never resume past a missing cell, so "the part of a
/// ray beyond cell x" is exactly `RAY[dir][x]`, which move generation relies on.
pub const RAY: [[u64; CELLS]; DIRECTIONS] = build_rays();

const fn build_rays() -> [[u64; CELLS]; DIRECTIONS] {
    let mut table = [[0u64; CELLS]; DIRECTIONS];
    let mut dir = 0;
    while dir < DIRECTIONS {
        let mut cell = 0;
        while cell < CELLS {
            let (mut c, mut r) = ((cell % COLS) as i32, (cell / COLS) as i32);
            if exists(c, r) {
                let mut bits = 0u64;
                loop {
                    let next = step(c, r, dir);
                    c = next.0;
                    r = next.1;
                    if !exists(c, r) {
                        break;
                    }
                    bits |= 1 << (r as usize * COLS + c as usize);
                }
                table[dir][cell] = bits;
            }
            cell += 1;
        }
        dir += 1;
    }
    table
}

/// `ADJACENT[cell]`: the set of neighbours of `cell`.
pub const ADJACENT: [u64; CELLS] = build_adjacent();

const fn build_adjacent() -> [u64; CELLS] {
    let mut table = [0u64; CELLS];
    let mut cell = 0;
    while cell < CELLS {
        let mut dir = 0;
        while dir < DIRECTIONS {
            let n = NEIGHBOUR[cell][dir];
            if n != NO_CELL {
                table[cell] |= 1 << n;
            }
            dir += 1;
        }
        cell += 1;
    }
    table
}

/// `LINE_DIRECTION[from][to]`: the direction in which `to` lies on a straight line from `from`,
/// or `NO_DIRECTION` (the push rule needs the direction of a slide given only its two ends).
pub const LINE_DIRECTION: [[u8; CELLS]; CELLS] = build_line_directions();

/// Marks "not on one line" in `LINE_DIRECTION`.
pub const NO_DIRECTION: u8 = u8::MAX;

const fn build_line_directions() -> [[u8; CELLS]; CELLS] {
    let mut table = [[NO_DIRECTION; CELLS]; CELLS];
    let mut dir = 0;
    while dir < DIRECTIONS {
        let mut from = 0;
        while from < CELLS {
            let mut to = 0;
            while to < CELLS {
                if RAY[dir][from] >> to & 1 == 1 {
                    table[from][to] = dir as u8;
                }
                to += 1;
            }
            from += 1;
        }
        dir += 1;
    }
    table
}

/// The cell name, `A1`..`H8` (column letter, 1-based row).
pub fn cell_name(cell: Cell) -> String {
    if cell as usize >= CELLS {
        return "--".to_string();
    }
    let col = (b'A' + col_of(cell) as u8) as char;
    format!("{col}{}", row_of(cell) + 1)
}

/// Parse `A1`..`H8` (case-insensitive) into a cell index; `None` for anything else, including the
/// missing cells of short rows.
pub fn parse_cell(text: &str) -> Option<Cell> {
    let bytes = text.trim().as_bytes();
    if bytes.len() != 2 {
        return None;
    }
    let col = bytes[0].to_ascii_uppercase().checked_sub(b'A')? as i32;
    let row = bytes[1].checked_sub(b'1')? as i32;
    if !exists(col, row) {
        return None;
    }
    Some(cell_at(col as usize, row as usize))
}

/// Iterate over the set bits of a bitboard as cells, lowest first.
pub fn cells_of(mut bits: u64) -> impl Iterator<Item = Cell> {
    std::iter::from_fn(move || {
        if bits == 0 {
            None
        } else {
            let cell = bits.trailing_zeros() as Cell;
            bits &= bits - 1;
            Some(cell)
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Independent reference: axial coordinates of the even-r layout (redblobgames), where the six
    /// directions are fixed vectors; a ray is the run of existing cells at k * vector, k = 1, 2, ...
    fn axial(cell: usize) -> (i32, i32) {
        let (col, row) = ((cell % 8) as i32, (cell / 8) as i32);
        (col - (row + (row & 1)) / 2, row)
    }

    fn axial_vector(dir: usize) -> (i32, i32) {
        [(1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1)][dir]
    }

    fn cell_with_axial(q: i32, r: i32) -> Option<usize> {
        (0..64).find(|&c| exists((c % 8) as i32, (c / 8) as i32) && axial(c) == (q, r))
    }

    #[test]
    fn sixty_cells_and_short_rows_are_the_shifted_ones() {
        assert_eq!(VALID.count_ones(), 60);
        for row in 0..8 {
            let width = (0..8).filter(|&c| exists(c, row)).count();
            assert_eq!(width, if row % 2 == 0 { 7 } else { 8 }, "row {row}");
        }
    }

    #[test]
    fn rays_and_neighbours_match_the_axial_reference() {
        for cell in 0..64 {
            for dir in 0..6 {
                let mut expected = 0u64;
                let mut first = NO_CELL;
                if VALID >> cell & 1 == 1 {
                    let (q, r) = axial(cell);
                    let (dq, dr) = axial_vector(dir);
                    let mut k = 1;
                    while let Some(next) = cell_with_axial(q + k * dq, r + k * dr) {
                        if k == 1 {
                            first = next as Cell;
                        }
                        expected |= 1 << next;
                        k += 1;
                    }
                }
                assert_eq!(RAY[dir][cell], expected, "cell {cell} dir {dir}");
                assert_eq!(NEIGHBOUR[cell][dir], first, "cell {cell} dir {dir}");
            }
        }
    }

    /// Move generation cuts a ray at its nearest blocker x by removing `RAY[dir][x]`: that must be
    /// exactly the ray's cells past x, and "nearest" must follow cell-index order.
    #[test]
    fn ray_beyond_a_cell_is_that_cells_ray() {
        for (dir, rays) in RAY.iter().enumerate() {
            for cell in cells_of(VALID) {
                let ray = rays[cell as usize];
                for x in cells_of(ray) {
                    let past: u64 = cells_of(ray)
                        .filter(|&y| if increases_index(dir) { y > x } else { y < x })
                        .fold(0, |acc, y| acc | 1 << y);
                    assert_eq!(rays[x as usize], past, "dir {dir} cell {cell} x {x}");
                }
            }
        }
    }

    #[test]
    fn line_direction_names_the_ray_holding_the_target() {
        for (from, row) in LINE_DIRECTION.iter().enumerate() {
            for (to, &dir) in row.iter().enumerate() {
                let holding: Vec<usize> = (0..6).filter(|&d| RAY[d][from] >> to & 1 == 1).collect();
                match holding.as_slice() {
                    [] => assert_eq!(dir, NO_DIRECTION),
                    [d] => assert_eq!(dir as usize, *d),
                    _ => panic!("{from} -> {to} on two rays"),
                }
            }
        }
    }

    #[test]
    fn directions_are_cyclic_opposites() {
        for cell in cells_of(VALID) {
            for dir in 0..6 {
                let n = NEIGHBOUR[cell as usize][dir];
                if n != NO_CELL {
                    assert_eq!(NEIGHBOUR[n as usize][opposite(dir)], cell);
                }
            }
        }
    }

    #[test]
    fn cell_names_round_trip() {
        for cell in cells_of(VALID) {
            assert_eq!(parse_cell(&cell_name(cell)), Some(cell));
        }
        assert_eq!(parse_cell("F4"), Some(cell_at(5, 3)));
        assert_eq!(parse_cell("f4"), Some(cell_at(5, 3)));
        assert_eq!(parse_cell("H1"), None, "row 1 is short");
        assert_eq!(parse_cell("H2"), Some(cell_at(7, 1)));
        for bad in ["", "A", "A0", "A9", "I1", "AA", "A10", "é1"] {
            assert_eq!(parse_cell(bad), None, "{bad:?}");
        }
    }
}
