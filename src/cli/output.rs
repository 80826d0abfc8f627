//! Standard output for the commands.

use std::io::{IsTerminal, Write};

/// Writes `text` to standard output. A reader that stops early (`replay game.jcz | head`)
/// closes the pipe; that ends the program quietly rather than with a panic.
pub fn emit(text: &str) {
    let mut out = std::io::stdout().lock();
    if let Err(e) = out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        if e.kind() == std::io::ErrorKind::BrokenPipe {
            std::process::exit(0);
        }
        eprintln!("error: cannot write the output: {e}");
        std::process::exit(1);
    }
}

/// A one-line bar on stderr, redrawn in place; only on a terminal, so logs stay clean.
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
