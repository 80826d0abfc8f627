//! The Card Game's numbers: hands and rounds by player count, the animal table, the city sets.

/// Cards per hand and rounds, by player count (the rulebook's table; 120 cards in every case).
pub fn hands(players: u8) -> Option<(u8, u8)> {
    match players {
        2 => Some((6, 10)),
        3 => Some((5, 8)),
        4 => Some((5, 6)),
        5 => Some((4, 6)),
        _ => None,
    }
}

/// Points for the people a player takes in their own rows, counted by value (1, 2, 3): the
/// sum of their values times how many they are ("$3+1+1 = 5$ ... $5 \times 3 = 15$").
pub fn people_points(by_value: [u8; 3]) -> u32 {
    let sum: u32 = (1..=3).zip(by_value).map(|(v, n)| v * u32::from(n)).sum();
    sum * by_value.iter().map(|&n| u32::from(n)).sum::<u32>()
}

/// Points a herd of `n` animals of one kind scores each time it grows, by size.
///
/// Printed: 2 score 6, and 5 score 14 (the sheep example). Our reading for the rest: 3 per
/// animal up to 4 (a lone Animal Joker also scores 3), then 2 for each one more.
pub const ANIMAL_POINTS: [u32; 13] = [0, 3, 6, 9, 12, 14, 16, 18, 20, 22, 24, 26, 28];

/// The herd table for a herd of `n`, extended by 2 per animal past its end.
pub fn animal_points(n: u32) -> u32 {
    let last = ANIMAL_POINTS.len() as u32 - 1;
    match ANIMAL_POINTS.get(n as usize) {
        Some(&p) => p,
        None => ANIMAL_POINTS[last as usize] + 2 * (n - last),
    }
}

/// A lone Animal Joker, taken with no animal to join: "he immediately scores 3 points".
pub const LONE_ANIMAL_JOKER: u32 = 3;
/// The Dragon and the Fairy, and each wrongly placed card a player turns in.
pub const TEN: u32 = 10;

/// City sets of 1 to 4 different colours: "0 points, 5 points, 15 points, 30 points".
pub const SET_POINTS: [u32; 5] = [0, 0, 5, 15, 30];

/// The best split of a chest into sets of different colours: the buildings per colour and the
/// City Jokers (each any colour). Returns the points and the sets' sizes, largest first.
///
/// A set's points grow faster the larger it is (each card adds 0, 5, 10, then 15), so the best
/// split makes sets as large as the colours allow: one card of every colour left per set, then
/// the jokers topping up the largest sets first, and any jokers left a set of their own. A test
/// checks this against an exhaustive search.
pub fn city_sets(buildings: [u8; 4], jokers: u8) -> (u32, Vec<u8>) {
    let mut sizes = Vec::new();
    let mut left = buildings;
    while left.iter().any(|&n| n > 0) {
        sizes.push(left.iter().filter(|&&n| n > 0).count() as u8);
        left.iter_mut().for_each(|n| *n = n.saturating_sub(1));
    }
    // The sizes fall or stay level set by set, so the first has the most cards.
    let mut jokers = jokers;
    for size in &mut sizes {
        let more = (4 - *size).min(jokers);
        *size += more;
        jokers -= more;
    }
    while jokers > 0 {
        let set = jokers.min(4);
        sizes.push(set);
        jokers -= set;
    }
    sizes.sort_unstable_by(|a, b| b.cmp(a));
    (sizes.iter().map(|&n| SET_POINTS[usize::from(n)]).sum(), sizes)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The oracle: every split of the chest, searched with a memo.
    mod exhaustive {
        use super::SET_POINTS;

        /// Best points by chest, for every chest up to its limits, in a flat table.
        pub(super) struct Memo {
            /// The most buildings of each colour and City Jokers a chest here holds.
            limits: [u8; 5],
            table: Vec<Option<u32>>,
        }

        impl Memo {
            pub(super) fn new(b: [u8; 4], j: u8) -> Memo {
                let limits = [b[0], b[1], b[2], b[3], j];
                let size = limits.iter().map(|&n| usize::from(n) + 1).product();
                Memo {
                    limits,
                    table: vec![None; size],
                }
            }

            fn slot(&self, b: [u8; 4], j: u8) -> usize {
                let counts = [b[0], b[1], b[2], b[3], j];
                counts
                    .iter()
                    .zip(self.limits)
                    .fold(0, |i, (&n, limit)| i * (usize::from(limit) + 1) + usize::from(n))
            }
        }

        pub(super) fn best_sets(b: [u8; 4], j: u8, memo: &mut Memo) -> u32 {
            if b.iter().all(|&n| n == 0) && j == 0 {
                return 0;
            }
            let slot = memo.slot(b, j);
            if let Some(v) = memo.table[slot] {
                return v;
            }
            let best = set_choices(b, j)
                .map(|(nb, nj, size)| SET_POINTS[size as usize] + best_sets(nb, nj, memo))
                .max()
                .unwrap_or(0);
            memo.table[slot] = Some(best);
            best
        }

        /// Every next set: a non-empty choice of colours held and of jokers, at most 4 cards, that
        /// always includes the first colour left (or a joker when none is), so each split is found
        /// once. Yields what is left and the set's size.
        fn set_choices(b: [u8; 4], j: u8) -> impl Iterator<Item = ([u8; 4], u8, u8)> {
            let first = b.iter().position(|&n| n > 0);
            (0u8..16).flat_map(move |mask| {
                (0..=j.min(4)).filter_map(move |used| {
                    let colours = (0..4).filter(|c| mask & (1 << c) != 0);
                    let size = mask.count_ones() as u8 + used;
                    let holds = colours.clone().all(|c| b[c] > 0);
                    let anchored = match first {
                        Some(f) => mask & (1 << f) != 0,
                        None => mask == 0 && used > 0,
                    };
                    (holds && anchored && (1..=4).contains(&size)).then(|| {
                        let mut nb = b;
                        colours.for_each(|c| nb[c] -= 1);
                        (nb, j - used, size)
                    })
                })
            })
        }
    }

    #[test]
    fn the_largest_sets_first_are_the_best_split() {
        // Every chest a game can give: up to the deck's 5 buildings of each colour and its 4
        // City Jokers. One memo, sized for the largest, serves them all.
        let mut memo = exhaustive::Memo::new([5; 4], 4);
        for code in 0..(6u32.pow(4) * 5) {
            let b = [0, 1, 2, 3].map(|k| (code / 6u32.pow(k) % 6) as u8);
            let j = (code / 6u32.pow(4)) as u8;
            let (points, sizes) = city_sets(b, j);
            assert_eq!(points, exhaustive::best_sets(b, j, &mut memo), "{b:?} and {j} jokers");
            let cards: u32 = b.iter().map(|&n| u32::from(n)).sum::<u32>() + u32::from(j);
            assert_eq!(
                sizes.iter().map(|&n| u32::from(n)).sum::<u32>(),
                cards,
                "every card in a set"
            );
        }
    }

    #[test]
    fn hands_follow_the_rulebook_table_and_use_120_cards() {
        // "2 players	6 cards	10 rounds" … "5 players	4 cards	6 rounds"
        assert_eq!(hands(2), Some((6, 10)));
        assert_eq!(hands(3), Some((5, 8)));
        assert_eq!(hands(4), Some((5, 6)));
        assert_eq!(hands(5), Some((4, 6)));
        assert_eq!(hands(1), None);
        assert_eq!(hands(6), None);
        for p in 2..=5 {
            let (cards, rounds) = hands(p).unwrap();
            assert_eq!(u32::from(p) * u32::from(cards) * u32::from(rounds), 120, "{p} players");
        }
    }

    #[test]
    fn people_score_their_sum_times_their_count() {
        // "Red has the following numerical values: $3+1+1 = 5$ Red has 3 person cards, so
        // $5 \times 3 = 15$ points"
        assert_eq!(people_points([2, 0, 1]), 15);
        assert_eq!(people_points([0; 3]), 0);
    }

    #[test]
    fn the_animal_table_reproduces_the_sheep_example() {
        // "Red clears 2 sheep cards … immediately scored 6 points"; "Red now has 5 sheep
        // cards. They immediately score 14 points"
        assert_eq!(animal_points(2), 6);
        assert_eq!(animal_points(5), 14);
        assert!((1..20).all(|n| animal_points(n + 1) > animal_points(n)));
        assert_eq!(animal_points(14), 32);
    }

    #[test]
    fn city_sets_score_0_5_15_30_and_the_example_totals_65() {
        // "1 city card 0 points / 2 different city cards 5 points / 3 … 15 / 4 … 30"
        assert_eq!(city_sets([1, 0, 0, 0], 0), (0, vec![1]));
        assert_eq!(city_sets([1, 1, 0, 0], 0), (5, vec![2]));
        assert_eq!(city_sets([1, 1, 1, 0], 0), (15, vec![3]));
        assert_eq!(city_sets([1, 1, 1, 1], 0), (30, vec![4]));
        // "Red receives a total of **65 points** for his City cards": 30 + 30 + 5 + 0.
        assert_eq!(city_sets([4, 3, 2, 1], 1), (65, vec![4, 4, 2, 1]));
        // Two of one colour never share a set; a joker fills any gap.
        assert_eq!(city_sets([2, 0, 0, 0], 0), (0, vec![1, 1]));
        assert_eq!(city_sets([0, 0, 0, 0], 3), (15, vec![3]));
        assert_eq!(city_sets([0, 0, 0, 0], 0), (0, vec![]));
    }
}
