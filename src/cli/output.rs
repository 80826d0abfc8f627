//! Standard output for the commands.

use std::io::Write;

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
