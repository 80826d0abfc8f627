//! Text people type that the pages show: players' names, collections' names and comments.
//!
//! Two kinds are refused where they come in, as a browser or a terminal would show them
//! misleadingly: text holding a bidirectional override, embedding or isolate, which reorders
//! what follows it on the page (a name could make the scores beside it read backwards), and
//! text made only of invisible characters (zero-width spaces, joiners, blanks), which shows
//! as nothing and cannot be told from another. Marks that only nudge direction (U+200E, U+200F)
//! and joiners inside visible text (emoji sequences, Persian and Indic words) are kept.

use std::borrow::Cow;

/// Why a text cannot be shown as it is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Unshowable {
    #[error("it holds the bidirectional control U+{code:04X} at character {at}, which would reorder the text after it")]
    Reordering { code: u32, at: usize },
    #[error("it shows nothing: every character in it is blank or invisible")]
    Invisible,
}

/// Checks a text that is not empty once trimmed.
pub fn check(text: &str) -> Result<(), Unshowable> {
    if let Some((i, c)) = text.chars().enumerate().find(|(_, c)| reorders(*c)) {
        return Err(Unshowable::Reordering {
            code: u32::from(c),
            at: i + 1,
        });
    }
    if text.chars().all(invisible) {
        return Err(Unshowable::Invisible);
    }
    Ok(())
}

/// The text without its reordering controls: what is shown of text stored before they were
/// refused.
pub fn without_reordering(text: &str) -> Cow<'_, str> {
    if text.chars().any(reorders) {
        Cow::Owned(text.chars().filter(|c| !reorders(*c)).collect())
    } else {
        Cow::Borrowed(text)
    }
}

/// The embeddings and overrides (U+202A–U+202E) and the isolates (U+2066–U+2069).
fn reorders(c: char) -> bool {
    matches!(c, '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}')
}

/// Whitespace, controls, and the characters fonts draw as nothing: zero-width spaces,
/// joiners and marks, the word joiner and invisible operators, the byte order mark, the
/// Hangul and Braille blanks, the combining grapheme joiner and the Mongolian vowel separator.
fn invisible(c: char) -> bool {
    c.is_whitespace()
        || c.is_control()
        || matches!(
            c,
            '\u{200B}'..='\u{200F}'
                | '\u{2060}'..='\u{2064}'
                | '\u{FEFF}'
                | '\u{034F}'
                | '\u{061C}'
                | '\u{115F}'
                | '\u{1160}'
                | '\u{180E}'
                | '\u{2800}'
                | '\u{3164}'
                | '\u{FFA0}'
        )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reordering_controls_and_invisible_text_are_refused_and_joiners_in_words_kept() {
        assert_eq!(
            check("Ann\u{202E}ffo"),
            Err(Unshowable::Reordering { code: 0x202E, at: 4 })
        );
        assert_eq!(
            check("\u{2067}Bob"),
            Err(Unshowable::Reordering { code: 0x2067, at: 1 })
        );
        assert_eq!(check("\u{200B}\u{200D}\u{FEFF}"), Err(Unshowable::Invisible));
        assert_eq!(check("\u{3164}"), Err(Unshowable::Invisible));
        for fine in ["Chloé", "میخواهم", "👩\u{200D}💻 Dana", "\u{200F}שרה", "李"] {
            assert_eq!(check(fine), Ok(()), "{fine}");
        }
        assert_eq!(without_reordering("a\u{202E}b\u{2069}c"), "abc");
        assert!(matches!(without_reordering("abc"), Cow::Borrowed(_)));
    }
}
