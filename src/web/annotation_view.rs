//! The owner's comments as the pages show them: in full on their turn's page, and by their
//! first words in the turn list. Their text goes out escaped, as every template's does; the
//! page keeps its line breaks (`white-space: pre-line` in the style sheet).

use crate::record::Annotation;
use crate::store::GameId;
use crate::web::links;
use crate::web::view::TurnLink;

/// Characters of a comment the turn list shows.
const START_CHARS: usize = 60;
/// Characters of a line the turn page shows; the link holds all of it.
const LINE_CHARS: usize = 40;

/// A comment on the turn page.
pub struct CommentView {
    /// The line it is on, as the owner's forms send it back; empty for the turn as played.
    pub line: String,
    /// For a line, its start and the explore board playing it.
    pub explored: Option<(String, String)>,
    pub text: String,
}

/// Turn `n`'s comments, the turn as played first.
pub fn on_turn(id: GameId, annotations: &[Annotation], n: u32) -> Vec<CommentView> {
    (annotations.iter().filter(|a| a.turn() == n))
        .map(|a| CommentView {
            line: a.line().to_string(),
            explored: (!a.line().is_empty())
                .then(|| (cut(a.line(), LINE_CHARS), links::explore(id, n, a.line(), None))),
            text: a.text().to_string(),
        })
        .collect()
}

/// Marks the turns of the list that have comments with the first words of their first.
pub fn mark(links: &mut [TurnLink], annotations: &[Annotation]) {
    for link in links {
        link.comment = (annotations.iter())
            .find(|a| a.turn() == link.n)
            .map(|a| cut(a.text().lines().next().unwrap_or_default(), START_CHARS));
    }
}

/// The first `chars` characters of `text`, with an ellipsis when there is more.
fn cut(text: &str, chars: usize) -> String {
    match text.char_indices().nth(chars) {
        Some((end, _)) => format!("{}…", text[..end].trim_end()),
        None => text.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_list_shows_a_comments_first_words() {
        let id: GameId = "0123456789abcdef".parse().unwrap();
        let long = format!("{} and more\nsecond line", "word ".repeat(20));
        let notes = [
            Annotation::new(2, "", &long).unwrap(),
            Annotation::new(2, "1,0,90", "a line").unwrap(),
            Annotation::new(3, "1,0,90", "only a line").unwrap(),
        ];
        let mut list = crate::web::view::turn_links(Vec::new(), 4, None);
        mark(&mut list, &notes);
        let marks: Vec<_> = list.iter().map(|l| l.comment.clone()).collect();
        let start = format!("{}…", "word ".repeat(12).trim_end());
        assert_eq!(marks, [None, Some(start), Some("only a line".into()), None]);
        let on_two = on_turn(id, &notes, 2);
        assert_eq!(on_two.len(), 2);
        assert!(on_two[0].explored.is_none() && on_two[0].text == long.trim());
        let (shown, link) = on_two[1].explored.clone().unwrap();
        assert_eq!(
            (shown.as_str(), link.as_str()),
            ("1,0,90", "/g/0123456789abcdef/t/2/explore?line=1,0,90")
        );
    }
}
