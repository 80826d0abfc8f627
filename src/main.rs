/// glibc's allocator costs a fifth of a loaded server's time (pages, JSON and compression
/// allocate per request, from two workers and the blocking pool); mimalloc a fraction of it.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> std::process::ExitCode {
    carcassonne_replay::cli::run()
}
