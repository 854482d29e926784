//! printf's %.Ne and %.Ng for doubles, so that the result strings (and error messages) read
//! as the C++ side's snprintf writes them. Rust's `{:.N e}` has the same digits (both are
//! exact and round ties to even) but writes the exponent as "e-3" where C writes "e-03",
//! and spells NaN "NaN" where glibc writes "nan" or "-nan".

/// glibc's spelling of a non-finite value, or None for a finite one.
fn non_finite(x: f64) -> Option<String> {
    if x.is_nan() {
        Some(if x.is_sign_negative() { "-nan" } else { "nan" }.to_string())
    } else if x.is_infinite() {
        Some(if x < 0.0 { "-inf" } else { "inf" }.to_string())
    } else {
        None
    }
}

/// Splits Rust's "d.ddde-3" into its mantissa and exponent.
fn rust_exp(x: f64, precision: usize) -> (String, i32) {
    let text = format!("{x:.precision$e}");
    let (mantissa, exponent) = text.split_once('e').expect("{:e} writes an exponent");
    (
        mantissa.to_string(),
        exponent.parse().expect("{:e} writes an integer exponent"),
    )
}

fn c_exp(mantissa: &str, exponent: i32) -> String {
    let sign = if exponent < 0 { '-' } else { '+' };
    format!("{mantissa}e{sign}{:02}", exponent.unsigned_abs())
}

/// printf("%.<precision>e", x).
pub fn e(x: f64, precision: usize) -> String {
    if let Some(text) = non_finite(x) {
        return text;
    }
    let (mantissa, exponent) = rust_exp(x, precision);
    c_exp(&mantissa, exponent)
}

/// printf("%.<precision>g", x): %e or %f by the exponent the value has at that precision,
/// trailing zeros (and a trailing point) removed.
pub fn g(x: f64, precision: usize) -> String {
    if let Some(text) = non_finite(x) {
        return text;
    }
    let p = precision.max(1);
    let (mantissa, exponent) = rust_exp(x, p - 1);
    let strip = |s: &str| -> String {
        if s.contains('.') {
            s.trim_end_matches('0').trim_end_matches('.').to_string()
        } else {
            s.to_string()
        }
    };
    if exponent >= -4 && exponent < p as i32 {
        let decimals = (p as i32 - 1 - exponent) as usize;
        strip(&format!("{x:.decimals$}"))
    } else {
        c_exp(&strip(&mantissa), exponent)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matches_printf() {
        assert_eq!(e(1234.5678, 6), "1.234568e+03");
        assert_eq!(e(-0.000123, 3), "-1.230e-04");
        assert_eq!(e(0.0, 6), "0.000000e+00");
        assert_eq!(e(1e100, 1), "1.0e+100");
        assert_eq!(e(1.25, 1), "1.2e+00"); // a tie, to even
        assert_eq!(e(f64::NAN, 6), "nan");
        assert_eq!(e(-f64::NAN, 6), "-nan");
        assert_eq!(e(f64::NEG_INFINITY, 6), "-inf");
        assert_eq!(g(0.0001234, 9), "0.0001234");
        assert_eq!(g(0.00001234, 9), "1.234e-05");
        assert_eq!(g(123456789.0, 9), "123456789");
        assert_eq!(g(1234567890.0, 9), "1.23456789e+09");
        assert_eq!(g(100.0, 6), "100");
        assert_eq!(g(0.1, 17), "0.10000000000000001");
        assert_eq!(g(-2.5, 6), "-2.5");
        assert_eq!(g(0.0, 6), "0");
    }
}
