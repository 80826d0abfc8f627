//! Annotations: a game owner's comments on its turns, one per turn and line. A line names a
//! position explored from that turn (the explore board's notation, `record::TileLine`), kept here
//! as opaque text: the empty line is the turn as played.
//!
//! An [`Annotation`] that exists is within the limits (`Annotation::MAX_TEXT_CHARS`,
//! `Annotation::MAX_LINE_BYTES`, no control character but newlines in its text, none at all in
//! its line): it is checked where it comes in (a native record's `annotations`, a request),
//! once.
//!
//! Records carry them in an optional `annotations` member, which the game's id never hashes
//! ([`without`]): comments change, the game does not.

use serde::{Deserialize, Serialize};

/// The member of a native record that holds them.
const FIELD: &str = "annotations";

/// A comment on turn `turn` (0: the start), on the turn as played or on a line explored from it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "DocAnnotation")]
pub struct Annotation {
    turn: u32,
    #[serde(skip_serializing_if = "String::is_empty")]
    line: String,
    text: String,
}

/// Why a comment is refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum AnnotationError {
    #[error("the comment is empty")]
    Empty,
    #[error(
        "the comment is {chars} characters long; the limit is {}",
        Annotation::MAX_TEXT_CHARS
    )]
    TooLong { chars: usize },
    #[error(
        "the comment holds the control character U+{code:04X} at character {at}; a comment may hold newlines, and no other control character"
    )]
    Control { code: u32, at: usize },
    #[error("the line is {bytes} bytes long; the limit is {}", Annotation::MAX_LINE_BYTES)]
    LineTooLong { bytes: usize },
    #[error("the line holds the control character U+{code:04X}; a line holds none")]
    LineControl { code: u32 },
    #[error("the comment cannot be shown: {0}")]
    Unshowable(#[from] super::shown_text::Unshowable),
}

impl AnnotationError {
    /// The limit the comment went past, in its unit: what an answer names.
    pub fn limit(&self) -> Option<(usize, &'static str)> {
        match self {
            AnnotationError::TooLong { .. } => Some((Annotation::MAX_TEXT_CHARS, "characters")),
            AnnotationError::LineTooLong { .. } => Some((Annotation::MAX_LINE_BYTES, "bytes")),
            _ => None,
        }
    }
}

impl Annotation {
    /// Characters a comment's text has at most, once trimmed.
    pub const MAX_TEXT_CHARS: usize = 2000;
    /// Bytes a line has at most: far more than a whole game's line in the explore board's
    /// notation.
    pub const MAX_LINE_BYTES: usize = 16 * 1024;
    /// Comments a game holds at most, on its turns and lines together: a page lists them all.
    pub const MAX_PER_GAME: usize = 1000;

    /// A comment on turn `turn` and line `line` (empty: the turn as played). The text is
    /// trimmed and its line breaks made `\n` (a browser sends a textarea's as `\r\n`).
    pub fn new(turn: u32, line: &str, text: &str) -> Result<Annotation, AnnotationError> {
        Ok(Annotation {
            turn,
            line: checked_line(line)?.to_string(),
            text: checked_text(text)?,
        })
    }

    /// A comment as the store holds it, checked again, without the reordering controls an
    /// earlier release let in; `None` for one that shows nothing then (an earlier release let
    /// in comments of invisible characters alone): its game still opens.
    pub fn stored(turn: u32, line: &str, text: &str) -> Result<Option<Annotation>, AnnotationError> {
        match Annotation::new(turn, line, &super::shown_text::without_reordering(text)) {
            Err(AnnotationError::Empty | AnnotationError::Unshowable(_)) => Ok(None),
            read => read.map(Some),
        }
    }

    pub fn turn(&self) -> u32 {
        self.turn
    }

    /// The line explored from the turn, in the explore board's notation; empty for the turn.
    pub fn line(&self) -> &str {
        &self.line
    }

    pub fn text(&self) -> &str {
        &self.text
    }
}

/// A line as it may be kept: at most [`Annotation::MAX_LINE_BYTES`], no control character.
fn checked_line(line: &str) -> Result<&str, AnnotationError> {
    if line.len() > Annotation::MAX_LINE_BYTES {
        return Err(AnnotationError::LineTooLong { bytes: line.len() });
    }
    match line.chars().find(|c| c.is_control()) {
        Some(c) => Err(AnnotationError::LineControl { code: u32::from(c) }),
        None => Ok(line),
    }
}

fn checked_text(text: &str) -> Result<String, AnnotationError> {
    let text = text.replace("\r\n", "\n").replace('\r', "\n");
    let text = text.trim();
    if text.is_empty() {
        return Err(AnnotationError::Empty);
    }
    let chars = text.chars().count();
    if chars > Annotation::MAX_TEXT_CHARS {
        return Err(AnnotationError::TooLong { chars });
    }
    if let Some((i, c)) = text.chars().enumerate().find(|(_, c)| c.is_control() && *c != '\n') {
        return Err(AnnotationError::Control {
            code: u32::from(c),
            at: i + 1,
        });
    }
    super::shown_text::check(text)?;
    Ok(text.to_string())
}

/// An annotation as a record writes it, before it is checked.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct DocAnnotation {
    turn: u32,
    #[serde(default)]
    line: String,
    text: String,
}

impl TryFrom<DocAnnotation> for Annotation {
    type Error = AnnotationError;

    fn try_from(a: DocAnnotation) -> Result<Annotation, AnnotationError> {
        Annotation::new(a.turn, &a.line, &a.text)
    }
}

/// Why a record's comments, each well-formed, cannot all be kept.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CommentsError {
    #[error("{FIELD}: {0} entries; a game holds at most {max} comments", max = Annotation::MAX_PER_GAME)]
    TooMany(usize),
    #[error(
        "{FIELD} entry {entry}: entry {first} is on the same turn ({turn}) and line already; a turn has one comment per line"
    )]
    Twice { entry: usize, first: usize, turn: u32 },
}

/// Checks that a record carries at most [`Annotation::MAX_PER_GAME`] annotations, no two on
/// one turn and line. The error names the entry, from 1. Linear: a record of 4 MiB holds
/// tens of thousands of short entries.
pub(super) fn one_per_line(annotations: &[Annotation]) -> Result<(), CommentsError> {
    if annotations.len() > Annotation::MAX_PER_GAME {
        return Err(CommentsError::TooMany(annotations.len()));
    }
    let mut first = std::collections::HashMap::with_capacity(annotations.len());
    for (i, a) in annotations.iter().enumerate() {
        if let Some(j) = first.insert((a.turn, a.line.as_str()), i) {
            return Err(CommentsError::Twice {
                entry: i + 1,
                first: j + 1,
                turn: a.turn,
            });
        }
    }
    Ok(())
}

/// A record's JSON without its annotations: what a game's id hashes and the store keeps.
pub(super) fn without(mut record: serde_json::Value) -> serde_json::Value {
    if let Some(members) = record.as_object_mut() {
        members.shift_remove(FIELD);
    }
    record
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_comment_is_trimmed_and_kept_within_its_limits() {
        let a = Annotation::new(3, "", "  Too greedy.\r\nThe city never closed.\n ").unwrap();
        assert_eq!(a.text(), "Too greedy.\nThe city never closed.");
        assert_eq!(Annotation::new(3, "", " \n\t"), Err(AnnotationError::Empty));
        let long = "é".repeat(Annotation::MAX_TEXT_CHARS);
        assert!(
            Annotation::new(0, "", &long).is_ok(),
            "counted in characters, not bytes"
        );
        assert_eq!(
            Annotation::new(0, "", &(long + "x")),
            Err(AnnotationError::TooLong {
                chars: Annotation::MAX_TEXT_CHARS + 1
            })
        );
        assert_eq!(
            Annotation::new(0, "", "ab\u{7}c"),
            Err(AnnotationError::Control { code: 7, at: 3 })
        );
        assert_eq!(
            Annotation::new(0, "ab\ncd", "x"),
            Err(AnnotationError::LineControl { code: 10 })
        );
        let line = "1,0,90@".repeat(Annotation::MAX_LINE_BYTES / 7 + 1);
        assert_eq!(
            Annotation::new(0, &line, "x"),
            Err(AnnotationError::LineTooLong { bytes: line.len() })
        );
    }

    /// What an earlier release stored is read without its reordering controls, and a comment
    /// that then shows nothing is left out rather than failing its game.
    #[test]
    fn a_stored_comment_loses_its_reordering_controls_and_an_invisible_one_is_left_out() {
        assert_eq!(Annotation::stored(1, "", "a\u{202E}b").unwrap().unwrap().text(), "ab");
        assert_eq!(Annotation::stored(1, "", "\u{202E}"), Ok(None));
        assert_eq!(Annotation::stored(1, "", "\u{200B}"), Ok(None));
        assert!(
            Annotation::stored(1, "a\nb", "x").is_err(),
            "a corrupt line is still an error"
        );
    }

    #[test]
    fn a_record_has_one_comment_per_turn_and_line() {
        let read = |json: &str| serde_json::from_str::<Vec<Annotation>>(json).map_err(|e| e.to_string());
        let ok = read(r#"[{"turn": 1, "text": "x"}, {"turn": 1, "line": "2,0,0", "text": "x"}]"#).unwrap();
        assert_eq!(ok[1].line(), "2,0,0");
        assert!(one_per_line(&ok).is_ok());
        let twice =
            read(r#"[{"turn": 1, "text": "x"}, {"turn": 2, "text": "y"}, {"turn": 1, "line": "", "text": "z"}]"#);
        let err = one_per_line(&twice.unwrap()).unwrap_err().to_string();
        assert!(
            err.starts_with("annotations entry 3: entry 1 is on the same turn (1)"),
            "{err}"
        );
        let err = read(r#"[{"turn": 1, "text": "x\u0000"}]"#).unwrap_err();
        assert!(err.contains("control character U+0000"), "{err}");
    }
}
