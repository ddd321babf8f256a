//! Number formatting shared by the report's sections.

/// `n` rounded to a whole number, with thousands separated by commas.
pub fn thousands(n: f64) -> String {
    let digits = format!("{n:.0}");
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && c.is_ascii_digit() && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}
