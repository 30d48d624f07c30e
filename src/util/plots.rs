//! PNG plots with plotters: rates with confidence intervals as bars, and lines (loss curves).
//!
//! Text needs a font; plotters' `ab_glyph` backend takes one registered at run time, so the
//! DejaVu Sans font is embedded (the `dejavu` crate) and no system fontconfig is needed.

use std::path::Path;
use std::sync::Once;

use plotters::prelude::*;
use plotters::style::FontStyle;

static FONT: Once = Once::new();

fn ensure_font() {
    FONT.call_once(|| {
        // The embedded font is known-good; failure here would be a build problem, not input.
        plotters::style::register_font("sans-serif", FontStyle::Normal, dejavu::sans::regular())
            .unwrap_or_else(|_| panic!("embedded DejaVu Sans is not a valid font"));
    });
}

/// One bar: a label, a value and its 95% interval.
#[derive(Clone, Debug, PartialEq)]
pub struct Bar {
    pub label: String,
    pub value: f64,
    pub lo: f64,
    pub hi: f64,
}

type PlotResult = Result<(), Box<dyn std::error::Error>>;

/// Draws into a hidden `.NAME.tmp.png` beside `path` (plotters picks the encoder by the extension,
/// so it must stay `.png`) and renames it into place: a plot appears whole or not at all, and a
/// failed draw leaves the previous file untouched.
fn atomically(path: &Path, draw: impl FnOnce(&Path) -> PlotResult) -> PlotResult {
    let name = path.file_stem().ok_or("a plot path without a file name")?;
    let mut tmp = std::ffi::OsString::from(".");
    tmp.push(name);
    tmp.push(".tmp.png");
    let tmp = path.with_file_name(tmp);
    match draw(&tmp) {
        Ok(()) => Ok(std::fs::rename(&tmp, path)?),
        Err(e) => {
            let _ = std::fs::remove_file(&tmp);
            Err(e)
        }
    }
}

/// A bar chart with error bars, written to `path` (PNG).
pub fn bars(path: &Path, title: &str, y_label: &str, bars: &[Bar]) -> PlotResult {
    atomically(path, |tmp| draw_bars(tmp, title, y_label, bars))
}

fn draw_bars(path: &Path, title: &str, y_label: &str, bars: &[Bar]) -> PlotResult {
    ensure_font();
    let root = BitMapBackend::new(path, (900, 500)).into_drawing_area();
    root.fill(&WHITE)?;
    let finite = |v: f64| if v.is_finite() { v } else { 0.0 };
    let top = bars.iter().map(|b| finite(b.hi).max(finite(b.value))).fold(0.0f64, f64::max) * 1.15 + 1e-9;
    let n = bars.len().max(1);
    let mut chart = ChartBuilder::on(&root)
        .caption(title, ("sans-serif", 22))
        .margin(12)
        .x_label_area_size(60)
        .y_label_area_size(70)
        .build_cartesian_2d((0..n).into_segmented(), 0.0..top)?;
    let labels: Vec<String> = bars.iter().map(|b| b.label.clone()).collect();
    chart
        .configure_mesh()
        .disable_x_mesh()
        .y_desc(y_label)
        .x_labels(n)
        .x_label_formatter(&|x| match x {
            SegmentValue::CenterOf(i) => labels.get(*i).cloned().unwrap_or_default(),
            _ => String::new(),
        })
        .label_style(("sans-serif", 14))
        .draw()?;
    chart.draw_series(bars.iter().enumerate().map(|(i, b)| {
        let x0 = SegmentValue::Exact(i);
        let x1 = SegmentValue::Exact(i + 1);
        let mut r = Rectangle::new([(x0, 0.0), (x1, finite(b.value))], BLUE.mix(0.5).filled());
        r.set_margin(0, 0, 8, 8);
        r
    }))?;
    chart.draw_series(bars.iter().enumerate().filter(|(_, b)| b.lo.is_finite() && b.hi.is_finite()).map(
        |(i, b)| {
            ErrorBar::new_vertical(SegmentValue::CenterOf(i), b.lo, finite(b.value), b.hi, BLACK.filled(), 10)
        },
    ))?;
    root.present()?;
    Ok(())
}

/// One named line of (x, y) points.
pub struct Line {
    pub name: String,
    pub points: Vec<(f64, f64)>,
}

/// A line chart (for example loss over iterations), written to `path` (PNG).
pub fn lines(path: &Path, title: &str, x_label: &str, y_label: &str, lines: &[Line]) -> PlotResult {
    atomically(path, |tmp| draw_lines(tmp, title, x_label, y_label, lines))
}

fn draw_lines(path: &Path, title: &str, x_label: &str, y_label: &str, lines: &[Line]) -> PlotResult {
    ensure_font();
    let root = BitMapBackend::new(path, (900, 500)).into_drawing_area();
    root.fill(&WHITE)?;
    let pts = lines.iter().flat_map(|l| l.points.iter()).filter(|(x, y)| x.is_finite() && y.is_finite());
    let (mut x0, mut x1, mut y0, mut y1) = (f64::MAX, f64::MIN, f64::MAX, f64::MIN);
    for &(x, y) in pts {
        x0 = x0.min(x);
        x1 = x1.max(x);
        y0 = y0.min(y);
        y1 = y1.max(y);
    }
    if x0 > x1 {
        (x0, x1, y0, y1) = (0.0, 1.0, 0.0, 1.0);
    }
    let pad = ((y1 - y0) * 0.05).max(1e-9);
    let mut chart = ChartBuilder::on(&root)
        .caption(title, ("sans-serif", 22))
        .margin(12)
        .x_label_area_size(45)
        .y_label_area_size(70)
        .build_cartesian_2d(x0..x1.max(x0 + 1e-9), (y0 - pad)..(y1 + pad))?;
    chart.configure_mesh().x_desc(x_label).y_desc(y_label).label_style(("sans-serif", 14)).draw()?;
    for (i, l) in lines.iter().enumerate() {
        let color = Palette99::pick(i).to_rgba();
        chart
            .draw_series(LineSeries::new(l.points.iter().copied(), color.stroke_width(2)))?
            .label(l.name.clone())
            .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], color.stroke_width(2)));
    }
    if lines.len() > 1 {
        chart.configure_series_labels().background_style(WHITE.mix(0.8)).border_style(BLACK).draw()?;
    }
    root.present()?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writes_png_files() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("b.png");
        let data = vec![
            Bar { label: "0".into(), value: 0.5, lo: 0.4, hi: 0.6 },
            Bar { label: "1".into(), value: 0.3, lo: f64::NAN, hi: f64::NAN },
        ];
        bars(&p, "win rate", "rate", &data).unwrap();
        let bytes = std::fs::read(&p).unwrap();
        assert_eq!(&bytes[..4], b"\x89PNG");
        let q = dir.path().join("l.png");
        let l = Line { name: "train".into(), points: vec![(0.0, 2.0), (1.0, 1.0), (2.0, 0.5)] };
        lines(&q, "loss", "iteration", "loss", &[l]).unwrap();
        assert_eq!(&std::fs::read(&q).unwrap()[..4], b"\x89PNG");
        let mut names: Vec<String> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .collect();
        names.sort();
        assert_eq!(names, ["b.png", "l.png"], "no temporary file left behind");
    }

    /// A draw that fails half-way leaves the previous plot as it was and no temporary file.
    #[test]
    fn a_failed_draw_leaves_the_old_plot() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("b.png");
        std::fs::write(&p, b"old").unwrap();
        let err = atomically(&p, |tmp| {
            std::fs::write(tmp, b"half")?;
            Err("drawing failed".into())
        });
        assert!(err.is_err());
        assert_eq!(std::fs::read(&p).unwrap(), b"old");
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
    }
}
