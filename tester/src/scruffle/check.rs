//! The independent scorer: its own parsing of the three files and its own reading of the rules and
//! the scoring. It deliberately shares no code with the solver (`bot::scruffle`).

/// A valid play's totals.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Verdict {
    pub score: u128,
    pub placements: usize,
    pub new_cells: usize,
}

/// Letter values of the statement.
fn letter_value(letter: u8) -> u128 {
    match letter {
        b'A' | b'E' | b'I' | b'L' | b'N' | b'O' | b'R' | b'S' | b'T' | b'U' => 1,
        b'D' | b'G' => 2,
        b'B' | b'C' | b'M' | b'P' => 3,
        b'F' | b'H' | b'V' | b'W' | b'Y' => 4,
        b'K' => 5,
        b'J' | b'X' => 8,
        b'Q' | b'Z' => 10,
        _ => 0,
    }
}

/// Non-blank lines with their 1-based numbers (trailing `\r` removed).
fn lines(text: &str) -> impl Iterator<Item = (usize, &str)> {
    text.lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l.trim()))
        .filter(|(_, l)| !l.is_empty())
}

/// Validate `placements` against the board and word list texts; the names label error messages.
pub fn check(
    board: (&str, &str),
    words: (&str, &str),
    placements: (&str, &str),
) -> Result<Verdict, String> {
    let (board_name, board_text) = board;
    let rows: Vec<&[u8]> = lines(board_text).map(|(_, l)| l.as_bytes()).collect();
    if rows.is_empty() {
        return Err(format!("{board_name}: no rows"));
    }
    for (n, l) in lines(board_text) {
        if l.len() != rows[0].len() {
            return Err(format!("{board_name}:{n}: ragged row"));
        }
        if let Some(b) = l
            .bytes()
            .find(|b| !matches!(b, b'#' | b'0'..=b'9' | b'D' | b'T'))
        {
            return Err(format!("{board_name}:{n}: bad cell {:?}", b as char));
        }
    }
    let (words_name, words_text) = words;
    let mut list: Vec<Vec<u8>> = Vec::new();
    for (n, l) in lines(words_text) {
        if !l.bytes().all(|b| b.is_ascii_alphabetic()) {
            return Err(format!("{words_name}:{n}: bad word {l:?}"));
        }
        list.push(l.to_ascii_uppercase().into_bytes());
    }
    let (width, height) = (rows[0].len(), rows.len());
    let mut letters = vec![vec![0u8; width]; height];
    let mut used = vec![false; list.len()];
    let (name, text) = placements;
    let mut verdict = Verdict {
        score: 0,
        placements: 0,
        new_cells: 0,
    };
    for (n, l) in lines(text) {
        let at = |problem: String| format!("{name}:{n}: {problem}");
        let parts: Vec<&str> = l.split_whitespace().collect();
        let [dir, idx, x, y] = parts[..] else {
            return Err(at(format!("expected `H|V index x y`, got {l:?}")));
        };
        let vertical = match dir {
            "H" => false,
            "V" => true,
            _ => return Err(at(format!("direction {dir:?} is not H or V"))),
        };
        let number = |s: &str| {
            s.parse::<usize>()
                .map_err(|_| at(format!("{s:?} is not a number")))
        };
        let (idx, x, y) = (number(idx)?, number(x)?, number(y)?);
        let Some(word) = list.get(idx) else {
            return Err(at(format!("word index {idx} is out of range")));
        };
        if used[idx] {
            return Err(at(format!("word index {idx} is used twice")));
        }
        used[idx] = true;
        let mut letter_sum: u128 = 0;
        let mut factor: u128 = 1;
        let mut new = 0;
        for (k, &letter) in word.iter().enumerate() {
            let (cx, cy) = if vertical { (x, y + k) } else { (x + k, y) };
            if cx >= width || cy >= height {
                return Err(at(format!("letter {} leaves the board", k + 1)));
            }
            let multiplier = match rows[cy][cx] {
                b'#' => return Err(at(format!("letter {} is on an obstacle", k + 1))),
                b'D' => {
                    factor *= 2;
                    1
                }
                b'T' => {
                    factor *= 3;
                    1
                }
                digit => (digit - b'0') as u128,
            };
            letter_sum += letter_value(letter) * multiplier;
            match letters[cy][cx] {
                0 => {
                    letters[cy][cx] = letter;
                    new += 1;
                }
                have if have != letter => {
                    return Err(at(format!(
                        "letter {} {:?} disagrees with {:?} at ({cx}, {cy})",
                        k + 1,
                        letter as char,
                        have as char
                    )))
                }
                _ => {}
            }
        }
        if new == 0 {
            return Err(at("no new cell".to_string()));
        }
        let score = letter_sum
            .checked_mul(factor)
            .and_then(|s| s.checked_add(verdict.score))
            .ok_or_else(|| at("score overflows".to_string()))?;
        verdict.score = score;
        verdict.placements += 1;
        verdict.new_cells += new;
    }
    Ok(verdict)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(board: &str, words: &str, plays: &str) -> Result<Verdict, String> {
        check(("b", board), ("w", words), ("p", plays))
    }

    #[test]
    fn scores_a_hand_computed_play() {
        // CAT at (1,0): C on D (3), A on 0 (0), T on T (1): (3 + 0 + 1) * 2 * 3 = 24.
        // AT vertical at (2,0)... A is on the 0 cell already holding A, T below on 5: (0 + 5) = 5.
        let v = run("2D0T\n1151\n", "cat\nat\n", "H 0 1 0\nV 1 2 0\n").unwrap();
        assert_eq!(v.score, 24 + 5);
        assert_eq!((v.placements, v.new_cells), (2, 4));
    }

    #[test]
    fn every_rule_is_enforced() {
        let board = "1111\n1#11\n";
        let words = "cat\nat\nta\n";
        let err = |plays: &str| run(board, words, plays).unwrap_err();
        assert!(err("H 0 2 0\n").contains("leaves the board"));
        assert!(err("V 1 1 0\n").contains("obstacle"));
        assert!(err("H 3 0 0\n").contains("out of range"));
        assert!(err("H 0 0 0\nH 0 1 1\n").contains("used twice"));
        assert!(err("H 0 0 0\nH 1 1 0\n").starts_with("p:2: no new cell"));
        assert!(err("H 0 0 0\nH 2 1 0\n").contains("disagrees"));
        assert!(err("X 0 0 0\n").contains("not H or V"));
        assert!(err("H 0 0\n").contains("expected"));
        assert!(err("H 0 -1 0\n").contains("not a number"));
        assert!(run(board, words, "H 0 0 0\nV 1 3 0\n").is_ok());
    }
}
