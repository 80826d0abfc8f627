//! A record's own text inside an error message: quoted, and cut short. An error says what is
//! wrong and where, in the record's words; it never echoes a megabyte of them back to the
//! client and into the log.

use std::fmt;

/// Characters of a record's own text an error message quotes at most.
pub const QUOTE_CHARS: usize = 40;

/// A piece of a record, written as `{:?}` writes a string, cut after [`QUOTE_CHARS`]
/// characters with the length it had: `"aaaa…" (100000 characters)`.
#[derive(Clone, Copy, Debug)]
pub struct Quoted<'a>(pub &'a str);

impl fmt::Display for Quoted<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0.char_indices().nth(QUOTE_CHARS) {
            None => write!(f, "{:?}", self.0),
            Some((end, _)) => {
                let head = format!("{:?}", &self.0[..end]);
                let chars = self.0.chars().count();
                write!(f, "{}…\" ({chars} characters)", &head[..head.len() - 1])
            }
        }
    }
}

/// A message with every quoted piece (between `` ` `` or `"`) longer than [`QUOTE_CHARS`]
/// cut short: serde's "unknown variant `…`" and "invalid type: string \"…\"" quote the
/// record whole, and so would any message of ours that forgot [`Quoted`].
pub fn shorten_quotes(message: &str) -> String {
    let mut out = String::with_capacity(message.len().min(1024));
    let mut rest = message;
    while let Some(open) = rest.find(['`', '"']) {
        let mark = &rest[open..=open];
        out.push_str(&rest[..=open]);
        rest = &rest[open + 1..];
        let (inside, closed) = match rest.find(mark) {
            Some(close) => (&rest[..close], true),
            None => (rest, false),
        };
        out.push_str(&cut(inside));
        if !closed {
            return out;
        }
        out.push_str(mark);
        rest = &rest[inside.len() + 1..];
    }
    out.push_str(rest);
    out
}

/// The start of a record's own text, at most [`QUOTE_CHARS`] characters, with "…" where it
/// was cut.
pub fn cut(text: &str) -> std::borrow::Cow<'_, str> {
    match text.char_indices().nth(QUOTE_CHARS) {
        None => text.into(),
        Some((end, _)) => format!("{}…", &text[..end]).into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_text_is_quoted_whole_and_long_text_cut_with_its_length() {
        assert_eq!(Quoted("red 3").to_string(), "\"red 3\"");
        assert_eq!(Quoted("a\"b").to_string(), "\"a\\\"b\"");
        let long = "é".repeat(100_000);
        let quoted = Quoted(&long).to_string();
        assert_eq!(quoted, format!("\"{}…\" (100000 characters)", "é".repeat(QUOTE_CHARS)));
    }

    #[test]
    fn serde_messages_keep_their_words_and_lose_the_bulk() {
        let key = "k".repeat(10_000);
        let message = format!("unknown field `{key}`, expected one of `player`, `tile`");
        let short = shorten_quotes(&message);
        assert_eq!(
            short,
            format!(
                "unknown field `{}…`, expected one of `player`, `tile`",
                "k".repeat(QUOTE_CHARS)
            )
        );
        assert_eq!(shorten_quotes("plain words"), "plain words");
        let unclosed = format!("invalid type: string \"{}", "x".repeat(1_000));
        assert_eq!(
            shorten_quotes(&unclosed),
            format!("invalid type: string \"{}…", "x".repeat(QUOTE_CHARS))
        );
        let ours = format!("card {}: no such card", Quoted(&"y".repeat(500)));
        assert_eq!(shorten_quotes(&ours), ours, "a quote already cut stays as it is");
    }
}
