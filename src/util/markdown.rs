//! Markdown tables: a header row and aligned rows of already formatted cells.

/// Renders a GitHub-flavoured markdown table.
pub fn table(header: &[&str], rows: &[Vec<String>]) -> String {
    let mut out = String::new();
    out.push_str(&format!("| {} |\n", header.join(" | ")));
    out.push_str(&format!("|{}\n", header.iter().map(|_| "---|").collect::<String>()));
    for r in rows {
        out.push_str(&format!("| {} |\n", r.join(" | ")));
    }
    out
}

/// A rate as a percentage with one decimal ("23.4%"), or "-" when undefined.
pub fn pct(v: f64) -> String {
    if v.is_finite() {
        format!("{:.1}%", v * 100.0)
    } else {
        "-".into()
    }
}

/// The section of `md` that starts at the line `heading` (e.g. `"## Overall"`), up to the next
/// heading of the same or a higher level; empty when there is none.
pub fn section<'a>(md: &'a str, heading: &str) -> &'a str {
    let level = heading.chars().take_while(|&c| c == '#').count();
    let closes = |l: &str| {
        let h = l.chars().take_while(|&c| c == '#').count();
        h > 0 && h <= level && l[h..].starts_with(' ')
    };
    let (mut start, mut pos) = (None, 0);
    for line in md.split_inclusive('\n') {
        match start {
            None if line.trim_end() == heading => start = Some(pos),
            Some(s) if closes(line) => return &md[s..pos],
            _ => {}
        }
        pos += line.len();
    }
    start.map_or("", |s| &md[s..])
}

/// A rate with its 95% interval: "23.4% (21.0–25.9)" (an en dash, as every interval haifu writes).
pub fn pct_ci(v: f64, lo: f64, hi: f64) -> String {
    if v.is_finite() {
        format!("{:.1}% ({:.1}–{:.1})", v * 100.0, lo * 100.0, hi * 100.0)
    } else {
        "-".into()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn section_runs_to_the_next_heading_of_its_level() {
        let md = "# T\n\n## Overall\n\n| a |\n### sub\nx\n## Next\ny\n";
        assert_eq!(section(md, "## Overall"), "## Overall\n\n| a |\n### sub\nx\n");
        assert_eq!(section(md, "## Next"), "## Next\ny\n");
        assert_eq!(section(md, "## Missing"), "");
    }

    #[test]
    fn renders() {
        let t = table(&["a", "b"], &[vec!["1".into(), pct(0.5)]]);
        assert_eq!(t, "| a | b |\n|---|---|\n| 1 | 50.0% |\n");
        assert_eq!(pct(f64::NAN), "-");
        assert_eq!(pct_ci(0.25, 0.2, 0.3), "25.0% (20.0–30.0)");
    }
}
