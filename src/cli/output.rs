//! Standard output for the commands.

use std::io::{IsTerminal, Write};

/// Writes `text` to standard output. A reader that stops early (`replay game.jcz | head`)
/// closes the pipe; that ends the program quietly rather than with a panic.
pub fn emit(text: &str) {
    emit_bytes(text.as_bytes());
}

/// Writes bytes (a picture) to standard output, as [`emit`] writes text.
pub fn emit_bytes(bytes: &[u8]) {
    let mut out = std::io::stdout().lock();
    if let Err(e) = out.write_all(bytes).and_then(|()| out.flush()) {
        if e.kind() == std::io::ErrorKind::BrokenPipe {
            std::process::exit(0);
        }
        eprintln!("error: cannot write the output: {e}");
        std::process::exit(1);
    }
}

/// A one-line bar on stderr, redrawn in place; only on a terminal, so logs stay clean.
/// A whole game's analysis's [`crate::analysis::Progress`]: a bar of the turns analysed.
pub fn analysing(done: u32, total: u32) -> std::ops::ControlFlow<()> {
    progress_bar("analysing", "turns", done, total);
    std::ops::ControlFlow::Continue(())
}

pub fn progress_bar(doing: &str, unit: &str, done: u32, total: u32) {
    let mut err = std::io::stderr();
    if !err.is_terminal() {
        return;
    }
    let width = 30;
    let filled = (done as usize * width).checked_div(total as usize).unwrap_or(width);
    let bar = "#".repeat(filled) + &".".repeat(width - filled);
    let _ = write!(err, "\r{doing} [{bar}] {done}/{total} {unit}");
    if done == total {
        let _ = writeln!(err);
    }
    let _ = err.flush();
}

/// How a column's cells line up.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Align {
    Left,
    Right,
}

/// Rows of cells as text columns, each as wide as its widest cell, `gap` spaces apart. A row
/// with fewer cells than `align` ends in a note that may run past the columns (it counts for
/// no width). Trailing spaces are trimmed.
pub fn aligned(rows: &[Vec<String>], align: &[Align], gap: usize) -> String {
    let mut widths = vec![0; align.len()];
    for row in rows {
        let counted = if row.len() < align.len() {
            row.len().saturating_sub(1)
        } else {
            row.len()
        };
        for (w, cell) in widths.iter_mut().zip(&row[..counted]) {
            *w = (*w).max(cell.chars().count());
        }
    }
    let mut out = String::new();
    for row in rows {
        let mut line = String::new();
        for (i, cell) in row.iter().enumerate() {
            if i > 0 {
                line.push_str(&" ".repeat(gap));
            }
            let width = if row.len() < align.len() && i + 1 == row.len() {
                0
            } else {
                widths[i]
            };
            let pad = " ".repeat(width.saturating_sub(cell.chars().count()));
            match align[i] {
                Align::Left => {
                    line.push_str(cell);
                    line.push_str(&pad);
                }
                Align::Right => {
                    line.push_str(&pad);
                    line.push_str(cell);
                }
            }
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn columns_are_as_wide_as_their_widest_cell() {
        let cells = |r: &[&str]| r.iter().map(|c| c.to_string()).collect::<Vec<_>>();
        let rows = [
            cells(&["turn", "tile", "x", "rot"]),
            cells(&["1", "our-town-trail-end", "(0,2)", "90"]),
            cells(&["12", "A", "(-10,-3)", "0"]),
            cells(&["", "B", "discarded: no legal placement"]),
        ];
        let text = aligned(&rows, &[Align::Right, Align::Left, Align::Right, Align::Right], 2);
        let expected = [
            "turn  tile                       x  rot",
            "   1  our-town-trail-end     (0,2)   90",
            "  12  A                   (-10,-3)    0",
            "      B                   discarded: no legal placement",
        ];
        assert_eq!(text, expected.map(|l| format!("{l}\n")).concat());
    }
}
