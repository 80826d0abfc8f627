//! SVG to pixels (resvg/tiny-skia) and pixels to PNG.
//!
//! resvg loads no system fonts and silently drops text it has no font for, so the one font the
//! images use, DejaVu Sans, is compiled into the binary.

use super::RenderError;
use resvg::{tiny_skia, usvg};
use std::sync::{Arc, LazyLock};

/// The font every text in our SVG names.
pub const FONT_FAMILY: &str = "DejaVu Sans";
static FONT: &[u8] = include_bytes!("../../static/fonts/DejaVuSans.ttf");

/// Largest image we rasterise, per side and in total, so no request can exhaust memory.
pub const MAX_SIDE_PX: u32 = 8192;
pub const MAX_PIXELS: u64 = 32 * 1024 * 1024;

/// The largest size per tile at which an image drawn `width`×`height` at `size` would fit the
/// limits, if it scales with the size (margins scale less, so it may still need one step
/// down).
pub fn fitting_size(size: u32, width: u32, height: u32) -> u32 {
    let side = f64::from(MAX_SIDE_PX) / f64::from(width.max(height).max(1));
    let area = (MAX_PIXELS as f64 / (f64::from(width) * f64::from(height)).max(1.0)).sqrt();
    (f64::from(size) * side.min(area)).floor() as u32
}

static FONTS: LazyLock<Arc<usvg::fontdb::Database>> = LazyLock::new(|| {
    let mut db = usvg::fontdb::Database::new();
    db.load_font_source(usvg::fontdb::Source::Binary(Arc::new(FONT)));
    db.set_sans_serif_family(FONT_FAMILY);
    Arc::new(db)
});

/// The width of `text` set in the embedded font at `size` px (regular weight), from the
/// font's own advances; a character the font lacks counts as its missing-glyph box.
pub fn text_width(text: &str, size: f32) -> f32 {
    use skrifa::MetadataProvider;
    use skrifa::instance::{LocationRef, Size};
    let Ok(font) = skrifa::FontRef::new(FONT) else {
        return 0.0;
    };
    let (charmap, metrics) = (
        font.charmap(),
        font.glyph_metrics(Size::new(size), LocationRef::default()),
    );
    text.chars()
        .map(|c| charmap.map(c).unwrap_or_default())
        .filter_map(|g| metrics.advance_width(g))
        .sum()
}

/// `text`, cut and ended with "…" where it would be wider than `max` px at `size`.
pub fn fit(text: &str, size: f32, max: f32) -> String {
    if text_width(text, size) <= max {
        return text.to_string();
    }
    let room = max - text_width("…", size);
    let mut out = String::new();
    let mut width = 0.0;
    for c in text.chars() {
        width += text_width(c.encode_utf8(&mut [0; 4]), size);
        if width > room {
            break;
        }
        out.push(c);
    }
    out.trim_end().to_string() + "…"
}

/// Parses and rasterises an SVG document at its own size.
pub fn rasterise(svg: &str) -> Result<tiny_skia::Pixmap, RenderError> {
    let opt = usvg::Options {
        fontdb: Arc::clone(&FONTS),
        font_family: FONT_FAMILY.to_string(),
        ..usvg::Options::default()
    };
    let tree = usvg::Tree::from_str(svg, &opt).map_err(|e| RenderError::Svg(e.to_string()))?;
    let size = tree.size().to_int_size();
    let (w, h) = (size.width(), size.height());
    if w > MAX_SIDE_PX || h > MAX_SIDE_PX || w as u64 * h as u64 > MAX_PIXELS {
        return Err(RenderError::TooLarge { width: w, height: h });
    }
    let mut pixmap = tiny_skia::Pixmap::new(w, h).ok_or(RenderError::TooLarge { width: w, height: h })?;
    resvg::render(&tree, tiny_skia::Transform::identity(), &mut pixmap.as_mut());
    Ok(pixmap)
}

/// Encodes a pixmap as PNG: RGB when fully opaque (our boards always are), else RGBA.
/// The fastest setting (the Up filter and a tuned deflate): flat tile colours compress well even
/// so, and it is several times quicker than the default.
pub fn encode_png(pixmap: &tiny_skia::Pixmap) -> Result<Vec<u8>, RenderError> {
    let opaque = pixmap.pixels().iter().all(|p| p.alpha() == 255);
    let (colour, data): (png::ColorType, Vec<u8>) = if opaque {
        let rgb = pixmap.data().chunks_exact(4).flat_map(|p| [p[0], p[1], p[2]]).collect();
        (png::ColorType::Rgb, rgb)
    } else {
        let rgba = pixmap
            .pixels()
            .iter()
            .flat_map(|p| {
                let c = p.demultiply();
                [c.red(), c.green(), c.blue(), c.alpha()]
            })
            .collect();
        (png::ColorType::Rgba, rgba)
    };
    let mut out = Vec::new();
    let mut enc = png::Encoder::new(&mut out, pixmap.width(), pixmap.height());
    enc.set_color(colour);
    enc.set_depth(png::BitDepth::Eight);
    enc.set_compression(png::Compression::Fastest);
    let png_err = |e: png::EncodingError| RenderError::Png(e.to_string());
    let mut writer = enc.write_header().map_err(png_err)?;
    writer.write_image_data(&data).map_err(png_err)?;
    writer.finish().map_err(png_err)?;
    Ok(out)
}

/// Rasterises an SVG document and encodes it as PNG.
pub fn svg_to_png(svg: &str) -> Result<Vec<u8>, RenderError> {
    encode_png(&rasterise(svg)?)
}

#[cfg(test)]
mod text_tests {
    use super::*;

    #[test]
    fn widths_come_from_the_font() {
        // DejaVu Sans: "W" is over twice as wide as "i", and widths scale with the size.
        assert!(text_width("WWWW", 30.0) > 2.0 * text_width("iiii", 30.0));
        let (a, b) = (text_width("Ada", 30.0), text_width("Ada", 60.0));
        assert!((b - 2.0 * a).abs() < 0.01, "{a} {b}");
    }

    #[test]
    fn long_names_are_cut_with_an_ellipsis_to_fit() {
        assert_eq!(fit("Ada", 30.0, 400.0), "Ada");
        let wide = "W".repeat(40);
        let cut = fit(&wide, 30.0, 400.0);
        assert!(cut.ends_with('…'), "{cut}");
        assert!(text_width(&cut, 30.0) <= 400.0, "{cut}");
        // Narrow letters fit more of themselves in the same room.
        let narrow = fit(&"i".repeat(200), 30.0, 400.0);
        assert!(narrow.chars().count() > 3 * cut.chars().count(), "{narrow}");
    }
}
