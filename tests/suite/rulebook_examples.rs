//! Every worked example of the three rulebooks, replayed with the rulebook's own numbers.
//!
//! Each example is a fixture in `tests/fixtures/rules/<name>.json`:
//!
//! ```json
//! {"rulebook": "classic-2000.txt", "quote": "<exact passage>", "comment": "<optional>",
//!  "record": { ...a carcassonne-replay/1 record... },
//!  "expect": {"final_scores": [..], "scores_after_turn": {"3": [4, 0]},
//!             "scored": [{"player": 0, "feature": "city", "points": 8}],
//!             "error_contains": "turn 4"}}
//! ```
//!
//! * `final_scores`: every player's score after the record (and final scoring, if it ran).
//! * `scores_after_turn`: every player's score after the n-th placed tile (1-based).
//! * `scored`: each entry must match some scoring event, during play or at the end. Keys:
//!   `feature` and `points` (required); `player` (one of the scorers) or `players` (exactly the
//!   scorers); optional `reason` ("completed", "incomplete", "abbot recalled", "farm"),
//!   `tiles`, `shields`, `cities` and `meeples` (meeples per player in the feature), and
//!   `terms`: exactly the score's terms, as counts by unit (`{"tile": 4, "surveyor": 1}`).
//! * `error_contains`: the record must be rejected (when parsed or replayed) with an error
//!   containing the string, or every string of a list.
//!
//! Expectations are read from the replay's JSON form (`replay::json::replay`, the contract of
//! `replay --json`), so the harness does not depend on the engine's internal types.
//!
//! Every fixture has a `#[test]` below, and `every_fixture_has_a_test` fails on any file that
//! is not listed. Each quote is also checked against the rulebook text, in `../shared/rules`
//! or `$CARCASSONNE_RULES_DIR`.
//!
//! In detail:
//! - every worked example in the three tile rulebooks and New World's (on tiles each record
//!   defines: trails 8 and 3, towns 8 and 8, the tie at 12, the farm's 9, same-turn returns,
//!   the final-scoring and trapper examples, example B2's surveyors in the default and a stated
//!   order), New World's readings and illegal records (east of the coast, touching nothing, an
//!   occupied plains, a sixth settler, an unknown mark), as records in `tests/fixtures/rules/`,
//!   with the rulebook's own numbers and a quote checked against the rulebook text

use crate::common;
use carcassonne_replay::record;
use carcassonne_replay::replay;
use serde_json::{Map, Value};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

fn fixture_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/rules")
}

fn rules_dir() -> Option<PathBuf> {
    match std::env::var_os("CARCASSONNE_RULES_DIR") {
        Some(dir) => Some(PathBuf::from(dir)),
        None => common::shared_dir("rules"),
    }
}

/// A loaded fixture, and the text every failure message starts with.
struct Example {
    record: Value,
    expect: Map<String, Value>,
    context: String,
}

impl Example {
    fn load(name: &str) -> Example {
        let path = fixture_dir().join(format!("{name}.json"));
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
        let wrapper: Value =
            serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: not valid JSON: {e}", path.display()));
        let obj = wrapper
            .as_object()
            .unwrap_or_else(|| panic!("{name}: the fixture is not a JSON object"));
        for key in obj.keys() {
            assert!(
                ["rulebook", "quote", "comment", "record", "expect"].contains(&key.as_str()),
                "{name}: unknown fixture key {key:?}"
            );
        }
        let text_of = |key: &str| -> String {
            obj.get(key)
                .and_then(Value::as_str)
                .unwrap_or_else(|| panic!("{name}: the fixture needs a string {key:?}"))
                .to_string()
        };
        let rulebook = text_of("rulebook");
        let quote = text_of("quote");
        let mut context = format!("rulebook example `{name}` ({rulebook}):\n    \"{quote}\"");
        if let Some(c) = obj.get("comment").and_then(Value::as_str) {
            write!(context, "\n    layout: {c}").unwrap();
        }
        let record = obj
            .get("record")
            .cloned()
            .unwrap_or_else(|| panic!("{name}: no \"record\""));
        let expect = obj
            .get("expect")
            .and_then(Value::as_object)
            .cloned()
            .unwrap_or_else(|| panic!("{name}: no \"expect\" object"));
        assert!(!expect.is_empty(), "{name}: \"expect\" states nothing");
        for key in expect.keys() {
            assert!(
                ["final_scores", "scores_after_turn", "scored", "error_contains"].contains(&key.as_str()),
                "{name}: unknown expectation {key:?}"
            );
        }
        check_quote(name, &rulebook, &quote);
        Example {
            record,
            expect,
            context,
        }
    }
}

/// The quote must be the rulebook's own words.
fn check_quote(name: &str, rulebook: &str, quote: &str) {
    let Some(dir) = rules_dir() else { return };
    let path = dir.join(rulebook);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{name}: cannot read {}: {e}", path.display()));
    assert!(
        text.contains(quote),
        "{name}: the quote is not in {}:\n    \"{quote}\"",
        path.display()
    );
}

fn check(name: &str) {
    let ex = Example::load(name);
    let bytes = serde_json::to_vec(&ex.record).expect("a JSON value serialises");
    let outcome = replay_json(&bytes);

    if let Some(wanted) = ex.expect.get("error_contains") {
        let wanted: Vec<&str> = match wanted {
            Value::String(s) => vec![s.as_str()],
            Value::Array(a) => a
                .iter()
                .map(|v| {
                    v.as_str()
                        .unwrap_or_else(|| panic!("{name}: error_contains holds strings"))
                })
                .collect(),
            _ => panic!("{name}: error_contains is a string or a list of strings"),
        };
        match outcome {
            Ok(r) => panic!(
                "{}\n\nthe record should be rejected with an error containing {wanted:?}, but it replayed:\n{}",
                ex.context,
                describe_scores(&r)
            ),
            Err(msg) => {
                for w in wanted {
                    assert!(
                        msg.contains(w),
                        "{}\n\nthe error should contain {w:?}, but it is:\n    {msg}",
                        ex.context
                    );
                }
            }
        }
        return;
    }

    let r = outcome.unwrap_or_else(|e| panic!("{}\n\nthe record should replay, but: {e}", ex.context));
    let ctx = format!(
        "{}\n\nscoring events of the replay:\n{}",
        ex.context,
        describe_scores(&r)
    );

    if let Some(v) = ex.expect.get("final_scores") {
        let want = scores(name, v);
        let got = scores(name, &r["final_scores"]);
        assert_eq!(got, want, "{ctx}\nfinal scores: expected {want:?}, got {got:?}");
    }
    if let Some(v) = ex.expect.get("scores_after_turn") {
        let map = v
            .as_object()
            .unwrap_or_else(|| panic!("{name}: scores_after_turn maps turn numbers to score lists"));
        for (turn, v) in map {
            let n: u32 = turn
                .parse()
                .unwrap_or_else(|_| panic!("{name}: scores_after_turn key {turn:?} is not a turn number"));
            let want = scores(name, v);
            let turns = r["turns"].as_array().expect("the replay lists its turns");
            let snap = turns
                .iter()
                .find(|t| t["turn"].as_u64() == Some(n as u64))
                .unwrap_or_else(|| panic!("{ctx}\nthere is no turn {n} (the replay has {} turns)", turns.len()));
            let got = scores(name, &snap["scores"]);
            assert_eq!(
                got, want,
                "{ctx}\nscores after turn {n}: expected {want:?}, got {got:?}"
            );
        }
    }
    if let Some(v) = ex.expect.get("scored") {
        let entries = v.as_array().unwrap_or_else(|| panic!("{name}: scored is a list"));
        let events = all_scores(&r);
        for entry in entries {
            let entry = entry
                .as_object()
                .unwrap_or_else(|| panic!("{name}: scored entries are objects"));
            let m = ScoreMatcher::new(name, entry);
            assert!(
                events.iter().any(|(_, s)| m.matches(s)),
                "{ctx}\nno scoring event matches {}",
                Value::Object(entry.clone())
            );
        }
    }
}

/// Parses and replays a record, giving the replay's JSON form or the error message.
fn replay_json(bytes: &[u8]) -> Result<Value, String> {
    let (rec, _) = record::parse(bytes).map_err(|e| e.to_string())?;
    let r = replay::replay(&rec, None).map_err(|e| e.describe(&rec))?;
    Ok(replay::json::replay(&rec, &r))
}

fn scores(name: &str, v: &Value) -> Vec<i32> {
    v.as_array()
        .and_then(|a| a.iter().map(|x| x.as_i64().map(|n| n as i32)).collect())
        .unwrap_or_else(|| panic!("{name}: a score list is a list of integers, not {v}"))
}

/// Every scoring event, in play (with its turn) and at the end.
fn all_scores(r: &Value) -> Vec<(Option<u64>, &Value)> {
    let in_play = r["turns"].as_array().into_iter().flatten().flat_map(|t| {
        let turn = t["turn"].as_u64();
        t["events"].as_array().into_iter().flatten().map(move |e| (turn, e))
    });
    let at_end = r["final_events"].as_array().into_iter().flatten().map(|e| (None, e));
    in_play.chain(at_end).filter(|(_, e)| e["type"] == "scored").collect()
}

fn describe_scores(r: &Value) -> String {
    let mut out = String::new();
    for (turn, s) in all_scores(r) {
        let when = turn.map_or("end".to_string(), |t| format!("turn {t}"));
        writeln!(
            out,
            "    {when}: {} {} at {} {}: players {} score {} ({}; meeples {})",
            s["reason"].as_str().unwrap_or("?"),
            s["feature"].as_str().unwrap_or("?"),
            s["position"],
            s["location"].as_str().unwrap_or("?"),
            s["players"],
            s["points"],
            s["explanation"].as_str().unwrap_or("?"),
            s["meeples"],
        )
        .unwrap();
    }
    if out.is_empty() {
        out.push_str("    (none)\n");
    }
    write!(
        out,
        "    final scores {} (final scoring ran: {})",
        r["final_scores"], r["finished"]
    )
    .unwrap();
    out
}

/// One `scored` entry of a fixture, matched against the replay's JSON scoring events.
struct ScoreMatcher {
    entry: Map<String, Value>,
}

impl ScoreMatcher {
    const KEYS: [&'static str; 10] = [
        "feature", "points", "player", "players", "reason", "tiles", "shields", "cities", "meeples", "terms",
    ];

    fn new(name: &str, e: &Map<String, Value>) -> ScoreMatcher {
        for key in e.keys() {
            assert!(
                Self::KEYS.contains(&key.as_str()),
                "{name}: unknown key {key:?} in a scored entry"
            );
        }
        assert!(
            e.get("feature").is_some_and(Value::is_string) && e.get("points").is_some_and(Value::is_u64),
            "{name}: a scored entry needs a feature and points"
        );
        ScoreMatcher { entry: e.clone() }
    }

    fn matches(&self, s: &Value) -> bool {
        self.entry.iter().all(|(key, want)| match key.as_str() {
            // One of the scorers (ties score several players).
            "player" => s["players"].as_array().is_some_and(|ps| ps.contains(want)),
            // Exactly these terms, each as a count of its unit: {"tile": 4, "surveyor": 1}.
            "terms" => {
                let got: Map<String, Value> = s["terms"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .map(|t| (t["unit"].as_str().unwrap_or_default().to_string(), t["count"].clone()))
                    .collect();
                want.as_object() == Some(&got)
            }
            // Every other key is a field of the scoring event, compared as is.
            _ => &s[key.as_str()] == want,
        })
    }
}

macro_rules! rulebook_examples {
    ($($(#[$attr:meta])* $name:ident),* $(,)?) => {
        $(
            $(#[$attr])*
            #[test]
            fn $name() {
                check(stringify!($name));
            }
        )*

        /// Every fixture with a test above.
        const LISTED: &[&str] = &[$(stringify!($name)),*];
    };
}

rulebook_examples! {
    // New World, on tiles each record defines
    nw_trail_two_trading_posts_scores_8,
    nw_town_three_tiles_one_flag_scores_8,
    nw_town_tie_both_score_12,
    nw_farm_surrounded_scores_9,
    nw_same_turn_return,
    nw_final_incomplete_trail_3_farm_5,
    nw_trappers_majority_scores_animals,
    nw_occupied_plains_rejected,
    nw_surveyors_example_b2,
    nw_score_order_stated_by_the_record,
    nw_surveyor_bonus_is_each_scorers_own,
    nw_town_four_tiles_no_flags_scores_8,
    nw_same_turn_return_trail_3,
    nw_final_incomplete_towns_black_scores_nothing,
    nw_final_incomplete_trails_2_and_3,
    nw_trappers_tie_both_score,
    nw_completion_without_settlers_moves_no_surveyor,
    nw_sixth_settler_rejected,
    nw_tile_touching_nothing_rejected,
    nw_unknown_mark_rejected,
    nw_tile_count_exhausted_rejected,
    nw_trappers_stay_when_the_surveyors_move_on,
    nw_no_tile_east_of_the_coast,
    nw_start_tile_east_of_the_coast_rejected,
    nw_town_facing_the_coast_never_completes,
    nw_farm_north_of_the_start_spaces_never_completes,
    nw_incomplete_farm_counts_the_start_spaces,
    nw_settler_east_of_both_surveyors_goes_home_after_the_next_scoring,
    nw_two_settlers_in_a_surveyors_column_earn_its_bonus_once,
    // second edition (Z-Man 2016) with The River and The Abbot
    se_road_three_tiles_scores_3,
    se_city_scores_8,
    se_two_tile_city_scores_4,
    se_monastery_completed_scores_9,
    se_highwaymen_tie_both_score_4,
    se_steal_city_majority_scores_10,
    se_final_incomplete_city_majority_8,
    se_final_incomplete_monastery_4,
    se_final_incomplete_city_2_tiles_1_shield_3,
    se_final_incomplete_road_3,
    se_same_turn_return,
    se_farm_tie_three_cities_9,
    se_farm_majority_four_cities_12,
    se_farm_small_field_two_cities_6,
    se_river_spring_continue_lake,
    se_river_turns_same_way_twice_rejected,
    se_river_immediate_same_way_turn_rejected,
    se_river_tiles_first,
    se_river_lake_last,
    se_river_start_tile_returned_to_box,
    se_abbot_garden_surrounded_9,
    se_follower_on_garden_rejected,
    se_abbot_recall_scores_6,
    se_abbot_only_on_monastery_or_garden,
    se_occupied_road_rejected,
    se_farmer_never_returns,
    se_placeable_tile_may_not_be_discarded,
    // classic 2000 (Rio Grande), original and alternate farmers
    classic_road_scores_4,
    classic_road_scores_3,
    classic_city_scores_8,
    classic_two_tile_city_scores_2,
    classic_alternate_two_tile_city_scores_2,
    classic_city_tie_both_score_10,
    classic_cloister_scores_9,
    classic_final_incomplete_road_city_cloister,
    classic_same_turn_return,
    classic_farm_incomplete_city_scores_nothing,
    classic_farm_two_cities_8,
    classic_farm_majority_over_all_fields,
    classic_farm_tie_small_city_big_city,
    classic_alternate_farms_score_independently,
    classic_alternate_farm_majority_3,
    classic_alternate_farm_two_cities_6,
    classic_occupied_city_rejected,
    classic_farmer_beside_occupied_city_allowed,
    classic_occupied_farm_rejected,
    classic_small_field_farmer_allowed,
    classic_joined_farms_no_new_farmer,
    // CMSC 22001 course rules
    course_town_5_tiles_2_shields_14,
    course_two_tile_town_2,
    course_road_cloister_to_junction_6,
    course_road_loop_8,
    course_region_tie_2_2_1,
    course_incomplete_cloister_4,
    course_farm_example,
    course_same_turn_return,
    course_returned_meeple_not_usable_same_turn,
    course_returned_meeple_scores_without_redeploy,
    course_occupied_region_rejected,
    course_impossible_placement_discarded,
    course_discarded_tile_never_used,
}

#[test]
fn every_fixture_has_a_test() {
    let mut on_disk: Vec<String> = std::fs::read_dir(fixture_dir())
        .expect("tests/fixtures/rules exists")
        .filter_map(|e| {
            let p = e.ok()?.path();
            (p.extension()? == "json").then(|| p.file_stem()?.to_str().map(str::to_string))?
        })
        .collect();
    on_disk.sort();
    let mut listed: Vec<String> = LISTED.iter().map(|s| s.to_string()).collect();
    listed.sort();
    let untested: Vec<_> = on_disk.iter().filter(|n| !listed.contains(n)).collect();
    let missing: Vec<_> = listed.iter().filter(|n| !on_disk.contains(n)).collect();
    assert!(
        untested.is_empty(),
        "fixtures without a #[test] in rulebook_examples!: {untested:?}"
    );
    assert!(missing.is_empty(), "tests without a fixture file: {missing:?}");
}

/// The harness itself must be able to fail: a wrong number is caught.
#[test]
fn a_wrong_expectation_fails() {
    let ex = Example::load("se_road_three_tiles_scores_3");
    let r = replay_json(&serde_json::to_vec(&ex.record).unwrap()).unwrap();
    let probe = |points: u64| {
        let e = serde_json::json!({"player": 0, "feature": "road", "points": points, "reason": "completed"});
        let m = ScoreMatcher::new("probe", e.as_object().unwrap());
        all_scores(&r).iter().any(|(_, s)| m.matches(s))
    };
    assert!(probe(3), "the 3-point road is found");
    assert!(!probe(4), "a 4-point road must not match the 3-point road");
}
