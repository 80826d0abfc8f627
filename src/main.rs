fn main() -> std::process::ExitCode {
    carcassonne_replay::cli::run()
}
