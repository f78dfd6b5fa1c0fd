//! A small reading of the POSIX shell lines that the docs show, enough to find the programs they
//! call and the words each one gets: quotes and escapes, variables set earlier (an unset one is an
//! error), `$(...)` (its output is unknown here: it reads as `CMD`), pipes and lists,
//! redirections, `# comments` and `for NAME in WORDS; do ...; done` (the body is read once, with
//! the first word).

use std::collections::HashMap;

/// One word after expansion; `quoted` when any part of it was quoted (a quoted word is never a
/// placeholder such as `FILE`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Word {
    pub text: String,
    pub quoted: bool,
}

/// One simple command: the program and its arguments, without redirections and without the
/// `NAME=value` words in front of it (they are in `env`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Simple {
    pub env: Vec<(String, String)>,
    pub words: Vec<Word>,
}

impl Simple {
    /// The words as plain strings.
    pub fn args(&self) -> Vec<String> {
        self.words.iter().map(|w| w.text.clone()).collect()
    }
}

/// A whole line: its simple commands in order (a pipeline's parts, a list's members, a loop's
/// body) and its comment.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Line {
    pub commands: Vec<Simple>,
    pub comment: Option<String>,
}

/// The value of a command substitution, which cannot be known without running it.
pub const SUBSTITUTION: &str = "CMD";

#[derive(Debug, Clone, PartialEq)]
enum Part {
    Text(String, bool),
    Var(String),
    Substitution,
}

#[derive(Debug, Clone, PartialEq)]
enum Token {
    Word(Vec<Part>),
    /// `|`, `||`, `&&`, `;`, `&` or a line break: the end of a simple command.
    Separator,
    /// `>`, `>>`, `<`, `2>`, ...: the next word is a file, not an argument.
    Redirect,
}

/// Read `text` (a command as the docs show it, continuation lines included). `vars` holds the
/// variables set by earlier lines; assignments on this line are added to it.
pub fn read(text: &str, vars: &mut HashMap<String, String>) -> Result<Line, String> {
    let (tokens, comment) = lex(text)?;
    let mut line = Line {
        commands: Vec::new(),
        comment,
    };
    let mut current: Vec<Vec<Part>> = Vec::new();
    let mut skip_next_word = false;
    for token in tokens.into_iter().chain([Token::Separator]) {
        match token {
            Token::Word(parts) if skip_next_word => {
                skip_next_word = false;
                drop(parts);
            }
            Token::Word(parts) => current.push(parts),
            Token::Redirect => skip_next_word = true,
            Token::Separator => {
                if skip_next_word {
                    return Err(format!("a redirection without its file in {text:?}"));
                }
                let words = std::mem::take(&mut current);
                if let Some(simple) = simple_command(words, vars)? {
                    line.commands.push(simple);
                }
            }
        }
    }
    Ok(line)
}

/// Turn one simple command's words into a `Simple` (None for `done`, a loop head or a bare
/// assignment, which only sets variables).
fn simple_command(
    mut words: Vec<Vec<Part>>,
    vars: &mut HashMap<String, String>,
) -> Result<Option<Simple>, String> {
    if is_keyword(words.first(), "do") {
        words.remove(0);
    }
    if words.is_empty() || is_keyword(words.first(), "done") {
        return Ok(None);
    }
    if is_keyword(words.first(), "for") {
        let name = match words.get(1).map(|w| expand(w, vars)).transpose()? {
            Some(w) if is_keyword(words.get(2), "in") && words.len() > 3 => w.text,
            _ => return Err("a `for` loop other than `for NAME in WORDS`".into()),
        };
        let first = expand(&words[3], vars)?;
        vars.insert(name, first.text);
        return Ok(None);
    }
    let mut simple = Simple::default();
    let mut words = words.into_iter().peekable();
    while let Some(word) = words.next_if(|w| assignment(w).is_some()) {
        let (name, value) = assignment(&word).expect("checked by next_if");
        let value = expand(&value, vars)?.text;
        simple.env.push((name, value));
    }
    for word in words {
        simple.words.push(expand(&word, vars)?);
    }
    if simple.words.is_empty() {
        for (name, value) in simple.env.drain(..) {
            vars.insert(name, value);
        }
        return Ok(None);
    }
    Ok(Some(simple))
}

fn is_keyword(word: Option<&Vec<Part>>, keyword: &str) -> bool {
    matches!(word.map(Vec::as_slice), Some([Part::Text(t, false)]) if t == keyword)
}

/// `NAME=value` as (NAME, the value's parts).
fn assignment(word: &[Part]) -> Option<(String, Vec<Part>)> {
    let Some(Part::Text(first, false)) = word.first() else {
        return None;
    };
    let (name, rest) = first.split_once('=')?;
    let mut chars = name.chars();
    let valid = chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_');
    if !valid {
        return None;
    }
    let mut value = vec![Part::Text(rest.to_string(), false)];
    value.extend(word[1..].iter().cloned());
    Some((name.to_string(), value))
}

fn expand(word: &[Part], vars: &HashMap<String, String>) -> Result<Word, String> {
    let mut out = Word {
        text: String::new(),
        quoted: false,
    };
    for part in word {
        match part {
            Part::Text(text, quoted) => {
                out.text.push_str(text);
                out.quoted |= quoted;
            }
            Part::Var(name) => match vars.get(name) {
                Some(value) => out.text.push_str(value),
                None => return Err(format!("${name} is used but not set on the page before")),
            },
            Part::Substitution => out.text.push_str(SUBSTITUTION),
        }
    }
    Ok(out)
}

/// Split into tokens; the comment (text after an unquoted `#` that starts a word) apart.
fn lex(text: &str) -> Result<(Vec<Token>, Option<String>), String> {
    let text = text.replace("\\\n", " ");
    let chars: Vec<char> = text.chars().collect();
    let mut tokens = Vec::new();
    let mut word: Vec<Part> = Vec::new();
    let mut in_word = false;
    let mut comment = None;
    let mut i = 0;
    // Close the word being read, if any.
    fn finish(tokens: &mut Vec<Token>, word: &mut Vec<Part>, in_word: &mut bool) {
        if *in_word {
            tokens.push(Token::Word(std::mem::take(word)));
            *in_word = false;
        }
    }
    fn push_text(word: &mut Vec<Part>, c: char, quoted: bool) {
        match word.last_mut() {
            Some(Part::Text(t, q)) if *q == quoted => t.push(c),
            _ => word.push(Part::Text(c.to_string(), quoted)),
        }
    }
    while i < chars.len() {
        let c = chars[i];
        match c {
            ' ' | '\t' => finish(&mut tokens, &mut word, &mut in_word),
            '\n' => {
                finish(&mut tokens, &mut word, &mut in_word);
                tokens.push(Token::Separator);
            }
            '#' if !in_word => {
                let end = chars[i..]
                    .iter()
                    .position(|&c| c == '\n')
                    .map_or(chars.len(), |p| i + p);
                let note: String = chars[i + 1..end].iter().collect();
                let note = note.trim().to_string();
                comment = Some(match comment.take() {
                    Some(earlier) => format!("{earlier}; {note}"),
                    None => note,
                });
                i = end;
                continue;
            }
            ';' | '|' | '&' => {
                finish(&mut tokens, &mut word, &mut in_word);
                if c == '&' && chars.get(i + 1) == Some(&'>') {
                    tokens.push(Token::Redirect);
                    i += 2;
                    continue;
                }
                if chars.get(i + 1) == Some(&c) && c != ';' {
                    i += 1;
                }
                tokens.push(Token::Separator);
            }
            '>' | '<' => {
                // A file descriptor number right before it belongs to the redirection.
                if matches!(word.as_slice(), [Part::Text(t, false)] if t.chars().all(|c| c.is_ascii_digit()))
                {
                    word.clear();
                    in_word = false;
                }
                finish(&mut tokens, &mut word, &mut in_word);
                if chars.get(i + 1) == Some(&'>') {
                    i += 1;
                }
                if chars.get(i + 1) == Some(&'&') {
                    // `>&2`, `2>&1`: a descriptor, not a file.
                    let end = chars[i + 2..]
                        .iter()
                        .position(|c| !c.is_ascii_digit())
                        .map_or(chars.len(), |p| i + 2 + p);
                    i = end;
                    continue;
                }
                tokens.push(Token::Redirect);
            }
            '\'' => {
                let end = chars[i + 1..]
                    .iter()
                    .position(|&c| c == '\'')
                    .ok_or_else(|| format!("an unclosed ' in {text:?}"))?;
                in_word = true;
                word.push(Part::Text(chars[i + 1..i + 1 + end].iter().collect(), true));
                i += end + 2;
                continue;
            }
            '"' => {
                in_word = true;
                i += 1;
                // An empty pair still makes a (quoted) word.
                word.push(Part::Text(String::new(), true));
                loop {
                    match chars.get(i) {
                        None => return Err(format!("an unclosed \" in {text:?}")),
                        Some('"') => break,
                        Some('\\') if matches!(chars.get(i + 1), Some('"' | '\\' | '$' | '`')) => {
                            push_text(&mut word, chars[i + 1], true);
                            i += 2;
                        }
                        Some('$') => i = dollar(&chars, i, &mut word)?,
                        Some(&c) => {
                            push_text(&mut word, c, true);
                            i += 1;
                        }
                    }
                }
            }
            '\\' => {
                in_word = true;
                if let Some(&next) = chars.get(i + 1) {
                    push_text(&mut word, next, true);
                }
                i += 2;
                continue;
            }
            '$' => {
                in_word = true;
                i = dollar(&chars, i, &mut word)?;
                continue;
            }
            _ => {
                in_word = true;
                push_text(&mut word, c, false);
            }
        }
        i += 1;
    }
    finish(&mut tokens, &mut word, &mut in_word);
    Ok((tokens, comment))
}

/// Read `$NAME`, `${NAME}` or `$(...)` at `chars[i]`; return the index after it.
fn dollar(chars: &[char], i: usize, word: &mut Vec<Part>) -> Result<usize, String> {
    match chars.get(i + 1) {
        Some('(') => {
            let mut depth = 0;
            for (j, &c) in chars.iter().enumerate().skip(i + 1) {
                match c {
                    '(' => depth += 1,
                    ')' => {
                        depth -= 1;
                        if depth == 0 {
                            word.push(Part::Substitution);
                            return Ok(j + 1);
                        }
                    }
                    _ => {}
                }
            }
            Err("an unclosed $(".into())
        }
        Some('{') => {
            let end = chars[i + 2..]
                .iter()
                .position(|&c| c == '}')
                .ok_or("an unclosed ${")?;
            word.push(Part::Var(chars[i + 2..i + 2 + end].iter().collect()));
            Ok(i + 3 + end)
        }
        Some(c) if c.is_ascii_alphabetic() || *c == '_' => {
            let end = chars[i + 1..]
                .iter()
                .position(|c| !(c.is_ascii_alphanumeric() || *c == '_'))
                .map_or(chars.len(), |p| i + 1 + p);
            word.push(Part::Var(chars[i + 1..end].iter().collect()));
            Ok(end)
        }
        _ => {
            word.push(Part::Text("$".into(), false));
            Ok(i + 1)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(line: &Line) -> Vec<Vec<String>> {
        line.commands.iter().map(Simple::args).collect()
    }

    #[test]
    fn reads_quotes_variables_pipes_redirections_and_comments() {
        let mut vars = HashMap::new();
        assert_eq!(
            read("B=./target/release/bot", &mut vars).unwrap(),
            Line::default()
        );
        let line = read(
            "printf 'a b\\n' > x.txt; \"$B\" penguins --bot \"$B penguins --seed {seed}\" \\\n  2>&1 | head -3   # about 2 s",
            &mut vars,
        )
        .unwrap();
        assert_eq!(
            words(&line),
            vec![
                vec!["printf", "a b\\n"],
                vec![
                    "./target/release/bot",
                    "penguins",
                    "--bot",
                    "./target/release/bot penguins --seed {seed}"
                ],
                vec!["head", "-3"],
            ]
        );
        assert_eq!(line.comment.as_deref(), Some("about 2 s"));
        assert!(line.commands[0].words[1].quoted);
        assert!(!line.commands[2].words[1].quoted);
    }

    #[test]
    fn reads_a_loop_body_once_with_the_first_word() {
        let mut vars = HashMap::from([("B".to_string(), "b".to_string())]);
        let line = read(
            "for k in 1 2 3 4; do\n    t --shard $k/4 --json s$k.json \\\n  --bot \"r=$B x\"\n  done",
            &mut vars,
        )
        .unwrap();
        assert_eq!(
            words(&line),
            vec![vec![
                "t", "--shard", "1/4", "--json", "s1.json", "--bot", "r=b x"
            ]]
        );
    }

    #[test]
    fn keeps_prefix_assignments_apart_and_substitutions_unknown() {
        let mut vars = HashMap::new();
        let line = read(
            "SBATCH_ARGS=\"--partition=cpu\" s.sh -n 4 --bot \"h=$(o.sh command htmf 40)\"",
            &mut vars,
        )
        .unwrap();
        assert_eq!(
            line.commands[0].env,
            vec![("SBATCH_ARGS".into(), "--partition=cpu".into())]
        );
        assert_eq!(
            words(&line),
            vec![vec!["s.sh", "-n", "4", "--bot", "h=CMD"]]
        );
        assert!(vars.is_empty());
    }

    #[test]
    fn refuses_unset_variables_and_unclosed_quotes() {
        let mut vars = HashMap::new();
        assert!(read("x \"$B penguins\"", &mut vars)
            .unwrap_err()
            .contains("$B is used but not set"));
        assert!(read("x 'open", &mut vars).is_err());
        assert!(read("x \"open", &mut vars).is_err());
    }
}
