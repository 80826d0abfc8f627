//! `bench collection N`: a collection of N generated games, imported as Carcassonne Lab
//! links the way `POST /api/collections` imports them (the same function, on a new SQLite
//! file), then its page built and rendered as `/c/{id}` does, cold (the first time after the
//! store is opened) and warm (the median of the next ones). Build with `--release`.

use crate::engine::Preset;
use crate::record::{RulesSpec, lab};
use crate::selfplay::{Policy, generate};
use crate::store::collection::{self, CollectionId, CollectionName, CollectionRow, ImportState};
use crate::store::{NewGame, OwnerToken, Store};
use crate::web::AppState;
use crate::web::routes::collections::render_page;
use serde_json::json;
use std::time::{Duration, Instant};

/// Names the generated games' players take, two a game, so that the standings and the head to
/// head have a dozen rows.
const NAMES: [&str; 12] = [
    "Ann", "Bob", "Cleo", "Dan", "Eve", "Finn", "Gus", "Hana", "Ivo", "Jo", "Kai", "Lea",
];

/// What `bench collection` is asked for.
#[derive(clap::Args, Debug)]
pub struct CollectionArgs {
    /// Games in the collection.
    #[arg(value_name = "N")]
    games: u32,
    /// Print the figures as JSON.
    #[arg(long)]
    json: bool,
}

pub fn run(args: &CollectionArgs) -> Result<(), String> {
    let CollectionArgs { games, json: as_json } = *args;
    let lines = links(games)?;
    let dir = std::env::temp_dir().join(format!("carcassonne-collection-bench-{}", std::process::id()));
    std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
    let file = dir.join("bench.sqlite");
    let outcome = measure(&file, &lines, as_json);
    let _ = std::fs::remove_dir_all(&dir);
    outcome
}

/// `games` generated games on Board Game Arena's rules (tiles without gardens), as links: the
/// first seeds whose game a link can hold (a link holds no discarded tile).
fn links(games: u32) -> Result<String, String> {
    let mut rules = RulesSpec::new(Preset::SecondEdition);
    rules.overrides = serde_json::from_value(json!({"edition": 1})).map_err(|e| e.to_string())?;
    let mut text = String::new();
    let (mut made, mut seed) = (0, 0usize);
    while made < games {
        seed += 1;
        let mut r = generate(rules.clone(), 2, Policy::Greedy, seed as u64).map_err(|e| e.to_string())?;
        for (p, name) in r.players.iter_mut().zip([seed, seed * 5 + 1]) {
            p.name = NAMES[name % NAMES.len()].to_string();
        }
        if let Ok(link) = lab::to_link(&r) {
            text += &link;
            text.push('\n');
            made += 1;
        }
    }
    Ok(text)
}

fn measure(file: &std::path::Path, text: &str, as_json: bool) -> Result<(), String> {
    let store = Store::open(file).map_err(|e| e.to_string())?;
    let token = OwnerToken::new().map_err(|e| e.to_string())?;
    let input = collection::lines(text, 0).map_err(|e| e.to_string())?;
    let import = ImportState::start(input.len() as u32);
    let row = CollectionRow {
        id: CollectionId::random().map_err(|e| e.to_string())?,
        name: CollectionName::parse("Bench").map_err(|e| e.to_string())?,
        owner: token.hash(),
        created_at: crate::store::now(),
        import: import.clone(),
    };
    store.create_collection(&row).map_err(|e| e.to_string())?;
    let new = NewGame {
        listed: true,
        owner: Some(token.hash()),
    };
    let started = Instant::now();
    let imported = collection::import(&store, &row.id, import, &input, new).map_err(|e| e.to_string())?;
    let import_time = started.elapsed();
    drop(store);

    // Cold: a store opened anew, nothing of it in the process's memory.
    let state = AppState::new(Store::open(file).map_err(|e| e.to_string())?, "http://localhost");
    let started = Instant::now();
    render_page(&state, &row.id).map_err(|e| e.to_string())?;
    let cold = started.elapsed();
    let mut warm: Vec<Duration> = (0..21)
        .map(|_| {
            let started = Instant::now();
            render_page(&state, &row.id).map(|_| started.elapsed())
        })
        .collect::<Result<_, _>>()
        .map_err(|e| e.to_string())?;
    warm.sort();
    let ms = |d: Duration| d.as_secs_f64() * 1000.0;
    if as_json {
        println!(
            "{}",
            json!({
                "lines": input.len(),
                "games": imported.games.len(),
                "errors": imported.errors.refused,
                "import_seconds": import_time.as_secs_f64(),
                "page_cold_ms": ms(cold),
                "page_warm_median_ms": ms(warm[warm.len() / 2]),
            })
        );
    } else {
        println!(
            "import: {} lines, {} games stored, {} refused, in {:.1} s",
            input.len(),
            imported.games.len(),
            imported.errors.refused,
            import_time.as_secs_f64()
        );
        println!(
            "collection page over {} games: {:.1} ms cold, {:.1} ms warm (median of {})",
            imported.games.len(),
            ms(cold),
            ms(warm[warm.len() / 2]),
            warm.len()
        );
    }
    Ok(())
}
