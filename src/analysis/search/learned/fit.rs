//! Ridge least squares: the weights `w` minimising `Σ (w·x − y)² + λ|w|²`, from the normal
//! equations solved by a Cholesky factorisation. A dozen unknowns need no linear-algebra crate.

/// The ridge weights of `rows` (features, target), no intercept: the model predicts a margin
/// from the difference of two players' features, which is zero for equal players. `lambda`
/// is scaled by the mean of the diagonal of `XᵀX`, so it does not depend on the features' units.
/// Every row has `n` features.
pub fn ridge(rows: &[(Vec<f64>, f64)], n: usize, lambda: f64) -> Vec<f64> {
    let mut a = vec![vec![0.0; n]; n];
    let mut b = vec![0.0; n];
    for (x, y) in rows {
        for i in 0..n {
            for j in 0..=i {
                a[i][j] += x[i] * x[j];
            }
            b[i] += x[i] * y;
        }
    }
    let scale = (0..n).map(|i| a[i][i]).sum::<f64>() / n as f64;
    for (i, row) in a.iter_mut().enumerate() {
        // A feature that never varies gets weight 0, not a division by zero.
        row[i] += lambda * scale + f64::MIN_POSITIVE.sqrt();
    }
    solve(&cholesky(&a), &b)
}

/// The lower-triangular `L` with `L Lᵀ = a`, from `a`'s lower triangle (`a` positive definite).
fn cholesky(a: &[Vec<f64>]) -> Vec<Vec<f64>> {
    let n = a.len();
    let mut l = vec![vec![0.0; n]; n];
    for i in 0..n {
        for j in 0..=i {
            let dot: f64 = (0..j).map(|k| l[i][k] * l[j][k]).sum();
            l[i][j] = if i == j {
                (a[i][i] - dot).max(f64::MIN_POSITIVE).sqrt()
            } else {
                (a[i][j] - dot) / l[j][j]
            };
        }
    }
    l
}

/// `x` with `L Lᵀ x = b`: forward, then back substitution.
fn solve(l: &[Vec<f64>], b: &[f64]) -> Vec<f64> {
    let n = b.len();
    let mut z = vec![0.0; n];
    for i in 0..n {
        z[i] = (b[i] - (0..i).map(|k| l[i][k] * z[k]).sum::<f64>()) / l[i][i];
    }
    let mut x = vec![0.0; n];
    for i in (0..n).rev() {
        x[i] = (z[i] - (i + 1..n).map(|k| l[k][i] * x[k]).sum::<f64>()) / l[i][i];
    }
    x
}

/// The share of the variance of `y` the predictions explain: 1 − SSE / SST.
pub fn r_squared(pairs: impl Iterator<Item = (f64, f64)>) -> f64 {
    let pairs: Vec<(f64, f64)> = pairs.collect();
    let n = pairs.len().max(1) as f64;
    let mean = pairs.iter().map(|(_, y)| y).sum::<f64>() / n;
    let sse: f64 = pairs.iter().map(|(p, y)| (y - p).powi(2)).sum();
    let sst: f64 = pairs.iter().map(|(_, y)| (y - mean).powi(2)).sum();
    if sst == 0.0 { 0.0 } else { 1.0 - sse / sst }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Exact data give back the weights that made them, with no ridge to speak of.
    #[test]
    fn ridge_recovers_the_weights_of_exact_data() {
        let w = [1.5, -2.0, 0.25];
        let rows: Vec<(Vec<f64>, f64)> = (0..40)
            .map(|i| {
                let i = f64::from(i);
                let x = vec![i.sin() * 3.0, (i * 0.7).cos(), i % 5.0];
                let y = x.iter().zip(w).map(|(a, b)| a * b).sum();
                (x, y)
            })
            .collect();
        let fitted = ridge(&rows, 3, 1e-9);
        for (f, w) in fitted.iter().zip(w) {
            assert!((f - w).abs() < 1e-6, "{fitted:?}");
        }
        let pred = rows
            .iter()
            .map(|(x, y)| (x.iter().zip(&fitted).map(|(a, b)| a * b).sum(), *y));
        assert!((r_squared(pred) - 1.0).abs() < 1e-9);
    }

    /// A feature that is always zero gets weight zero; the others are still fitted.
    #[test]
    fn a_feature_that_never_varies_weighs_nothing() {
        let rows: Vec<(Vec<f64>, f64)> = (0..10).map(|i| (vec![f64::from(i), 0.0], 2.0 * f64::from(i))).collect();
        let fitted = ridge(&rows, 2, 1e-9);
        assert!((fitted[0] - 2.0).abs() < 1e-6 && fitted[1] == 0.0, "{fitted:?}");
    }
}
