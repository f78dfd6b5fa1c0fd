//! Cutting a bot's output into lines with bounded memory: each line keeps at most `cap` bytes, the
//! rest of it is counted and dropped, so a bot that never prints a newline (`cat /dev/zero`) costs
//! `cap` bytes, not gigabytes.

/// One output line: at most `cap` bytes, without its `\n` (nor a `\r` before it).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RawLine {
    pub bytes: Vec<u8>,
    /// Bytes of this line beyond the cap, dropped.
    pub cut: u64,
}

#[derive(Debug)]
pub struct LineFramer {
    cap: usize,
    current: Vec<u8>,
    cut: u64,
}

impl LineFramer {
    pub fn new(cap: usize) -> LineFramer {
        LineFramer {
            cap,
            current: Vec::new(),
            cut: 0,
        }
    }

    /// Feed bytes as they came from the pipe; completed lines are appended to `out`.
    pub fn push(&mut self, mut bytes: &[u8], out: &mut Vec<RawLine>) {
        while !bytes.is_empty() {
            let end = bytes.iter().position(|&b| b == b'\n');
            let piece = &bytes[..end.unwrap_or(bytes.len())];
            let room = self.cap - self.current.len();
            let kept = piece.len().min(room);
            self.current.extend_from_slice(&piece[..kept]);
            self.cut += (piece.len() - kept) as u64;
            match end {
                Some(at) => {
                    out.push(self.take());
                    bytes = &bytes[at + 1..];
                }
                None => break,
            }
        }
    }

    /// The unterminated last line, if the output ended inside one.
    pub fn finish(&mut self) -> Option<RawLine> {
        (self.pending_bytes() > 0).then(|| self.take())
    }

    /// Length of the line read so far (kept and dropped bytes).
    pub fn pending_bytes(&self) -> u64 {
        self.current.len() as u64 + self.cut
    }

    fn take(&mut self) -> RawLine {
        let mut bytes = std::mem::take(&mut self.current);
        if self.cut == 0 && bytes.last() == Some(&b'\r') {
            bytes.pop();
        }
        RawLine {
            bytes,
            cut: std::mem::take(&mut self.cut),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use test_support::proptest::prelude::*;

    /// The obvious twin: split the whole output at `\n`, then cut each line.
    fn naive(output: &[u8], cap: usize) -> (Vec<RawLine>, Option<RawLine>) {
        let mut parts: Vec<&[u8]> = output.split(|&b| b == b'\n').collect();
        let last = parts.pop().filter(|p| !p.is_empty());
        let cut = |p: &[u8]| {
            let mut bytes = p[..p.len().min(cap)].to_vec();
            if p.len() <= cap && bytes.last() == Some(&b'\r') {
                bytes.pop();
            }
            RawLine {
                bytes,
                cut: p.len().saturating_sub(cap) as u64,
            }
        };
        (parts.into_iter().map(cut).collect(), last.map(cut))
    }

    fn framed(output: &[u8], cap: usize, chunks: &[usize]) -> (Vec<RawLine>, Option<RawLine>) {
        let mut framer = LineFramer::new(cap);
        let mut lines = Vec::new();
        let mut rest = output;
        for &size in chunks.iter().cycle() {
            if rest.is_empty() {
                break;
            }
            let (now, later) = rest.split_at(size.clamp(1, rest.len()));
            framer.push(now, &mut lines);
            rest = later;
        }
        (lines, framer.finish())
    }

    #[test]
    fn lines_are_cut_at_the_cap_and_the_rest_counted() {
        let (lines, last) = framed(b"ab\r\nabcdef\n\nxyz", 4, &[3]);
        let line = |b: &[u8], cut| RawLine {
            bytes: b.to_vec(),
            cut,
        };
        assert_eq!(lines, vec![line(b"ab", 0), line(b"abcd", 2), line(b"", 0)]);
        assert_eq!(last, Some(line(b"xyz", 0)));
        let mut framer = LineFramer::new(8);
        let mut out = Vec::new();
        for _ in 0..1000 {
            framer.push(&[0u8; 4096], &mut out);
        }
        assert!(out.is_empty());
        assert_eq!(framer.pending_bytes(), 4096 * 1000);
        assert!(framer.current.capacity() <= 64, "memory stays bounded");
    }

    proptest! {
        #![proptest_config(test_support::fuzz::config("line framer"))]
        #[test]
        fn framing_matches_the_naive_split(
            output in test_support::proptest::collection::vec(
                prop_oneof![Just(b'\n'), Just(b'\r'), any::<u8>()], 0..300),
            cap in 1usize..20,
            chunks in test_support::proptest::collection::vec(1usize..50, 1..6),
        ) {
            prop_assert_eq!(framed(&output, cap, &chunks), naive(&output, cap));
        }
    }
}
