// Interactive figures of the book (book/_ext/posenc_widgets.py).
//
// Each figure computes its numbers here, in double precision, from the
// formula its chapter states, and draws them as plain SVG. The same file runs
// twice:
//
// * when the book is built, in an embedded V8 (mini-racer, no DOM): the
//   directive asks `PosencWidgets.markup(name, id)` for the figure's HTML at
//   its default settings, so the page holds a finished static figure (what
//   print, the PDF and a reader without JavaScript see);
// * in the reader's browser, where it wires the sliders: every change
//   recomputes the numbers and redraws the figure at the width of the column.
//
// `PosencWidgets.values(figure)` returns the numbers of the figure as drawn
// last, with its settings: tests/book/test_widgets.py compares them with
// posenc's to 1e-12.
(function (root) {
  "use strict";

  const TWO_PI = 2 * Math.PI;
  const range = (n) => Array.from({length: n}, (_, i) => i);

  // --- numbers as text ------------------------------------------------------

  function thousands(text) {
    const [whole, frac] = text.split(".");
    const sign = whole.startsWith("-") ? "-" : "";
    const digits = whole.replace("-", "").replace(/\B(?=(\d{3})+(?!\d))/g, ",");
    return sign + digits + (frac === undefined ? "" : "." + frac);
  }

  // A number as the book prints it: 6.28, 54,410, 0.0022, 1e-05 -> 1.0e-5.
  function fmt(x, digits = 3) {
    if (!isFinite(x)) return String(x);
    const a = Math.abs(x);
    if (a === 0) return "0";
    if (a >= 1e7 || a < 1e-3) {
      const [m, e] = x.toExponential(1).split("e");
      return `${m}e${Number(e)}`;
    }
    if (a >= 1000) return thousands(x.toFixed(0));
    const decimals = Math.max(0, digits - 1 - Math.floor(Math.log10(a)));
    return thousands(x.toFixed(Math.min(decimals, 6)));
  }

  // A tick label or a setting: 20, 0.5, 1,000, 1e-4 (no trailing zeros).
  function num(x, digits = 4) {
    if (x === 0) return "0";
    if (Math.abs(x) >= 1e7 || Math.abs(x) < 1e-3) return fmt(x);
    return thousands(String(Number(x.toPrecision(digits))));
  }

  function esc(text) {
    return String(text).replace(/&/g, "&amp;").replace(/</g, "&lt;")
      .replace(/>/g, "&gt;").replace(/"/g, "&quot;");
  }

  const r1 = (x) => Math.round(x * 10) / 10;  // SVG coordinates, 0.1 px

  // --- a small plotting kit: scales, ticks, axes, lines, dots ---------------

  function niceStep(span, count) {
    const raw = span / Math.max(count, 1);
    const power = 10 ** Math.floor(Math.log10(raw));
    const unit = raw / power;
    return power * (unit <= 1 ? 1 : unit <= 2 ? 2 : unit <= 5 ? 5 : 10);
  }

  function linearTicks(lo, hi, count) {
    const step = niceStep(hi - lo, count);
    const ticks = [];
    for (let t = Math.ceil(lo / step - 1e-9) * step; t <= hi + step * 1e-9; t += step) {
      ticks.push(Math.abs(t) < step * 1e-9 ? 0 : Number(t.toPrecision(12)));
    }
    return ticks;
  }

  function logTicks(lo, hi, base, count) {
    const a = Math.ceil(Math.log(lo) / Math.log(base) - 1e-9);
    const b = Math.floor(Math.log(hi) / Math.log(base) + 1e-9);
    const every = Math.max(1, Math.ceil((b - a + 1) / Math.max(count, 1)));
    const ticks = [];
    for (let e = a; e <= b; e += every) ticks.push(base ** e);
    return ticks;
  }

  // A panel: a plot area at (x, y) of size w x h with its two scales.
  class Panel {
    constructor(x, y, w, h, xs, ys, svgWidth) {
      Object.assign(this, {x, y, w, h, xs, ys, svgWidth});
      this.parts = [];
    }

    static scale(spec, lo, hi) {
      const [a, b] = spec.domain;
      if (spec.log) {
        const la = Math.log(a), lb = Math.log(b);
        return (v) => lo + (hi - lo) * (Math.log(v) - la) / (lb - la);
      }
      return (v) => lo + (hi - lo) * (v - a) / (b - a);
    }

    X(v) { return Panel.scale(this.xs, this.x, this.x + this.w)(v); }
    Y(v) { return Panel.scale(this.ys, this.y + this.h, this.y)(v); }

    ticks(spec, length) {
      if (spec.ticks) return spec.ticks;
      const [a, b] = spec.domain;
      const count = Math.max(2, Math.floor(length / (spec.log ? 45 : 70)));
      return spec.log ? logTicks(a, b, spec.log, count) : linearTicks(a, b, count);
    }

    // Frame, grid, ticks and labels.
    axes({xlabel = "", ylabel = "", title = "", grid = true} = {}) {
      const out = [];
      const {x, y, w, h} = this;
      const inside = (v, spec) => v >= Math.min(...spec.domain) - 1e-12 &&
                                  v <= Math.max(...spec.domain) * (1 + 1e-12);
      for (const t of this.ticks(this.xs, w).filter((v) => inside(v, this.xs))) {
        const px = r1(this.X(t));
        if (grid) out.push(`<line class="pw-grid" x1="${px}" x2="${px}" y1="${y}" y2="${y + h}"/>`);
        out.push(`<line class="pw-axis" x1="${px}" x2="${px}" y1="${y + h}" y2="${y + h + 4}"/>`);
        out.push(`<text class="pw-tick" x="${px}" y="${y + h + 16}" text-anchor="middle">` +
                 `${esc((this.xs.format || num)(t))}</text>`);
      }
      for (const t of this.ticks(this.ys, h).filter((v) => inside(v, this.ys))) {
        const py = r1(this.Y(t));
        if (grid) out.push(`<line class="pw-grid" x1="${x}" x2="${x + w}" y1="${py}" y2="${py}"/>`);
        out.push(`<line class="pw-axis" x1="${x - 4}" x2="${x}" y1="${py}" y2="${py}"/>`);
        out.push(`<text class="pw-tick" x="${x - 6}" y="${py + 4}" text-anchor="end">` +
                 `${esc((this.ys.format || num)(t))}</text>`);
      }
      out.push(`<rect class="pw-frame" x="${x}" y="${y}" width="${w}" height="${h}"/>`);
      if (xlabel) {
        out.push(`<text class="pw-label" x="${r1(x + w / 2)}" y="${y + h + 32}" ` +
                 `text-anchor="middle">${esc(xlabel)}</text>`);
      }
      if (ylabel) {
        const cx = x - 44, cy = r1(y + h / 2);
        out.push(`<text class="pw-label" x="${cx}" y="${cy}" text-anchor="middle" ` +
                 `transform="rotate(-90 ${cx} ${cy})">${esc(ylabel)}</text>`);
      }
      if (title) out.push(titleText(title, this.svgWidth || x + w, y - 8));
      this.parts.unshift(...out);
      return this;
    }

    clip(id) {
      this.clipId = id;
      this.parts.push(`<clipPath id="${id}"><rect x="${this.x}" y="${this.y}" ` +
                      `width="${this.w}" height="${this.h}"/></clipPath>`);
      return this;
    }

    line(xs, ys, attrs = "") {
      let d = "";
      let pen = false;
      for (let i = 0; i < xs.length; i++) {
        const px = this.X(xs[i]), py = this.Y(ys[i]);
        if (!isFinite(px) || !isFinite(py)) { pen = false; continue; }
        d += `${pen ? "L" : "M"}${r1(px)} ${r1(py)}`;
        pen = true;
      }
      const clip = this.clipId ? ` clip-path="url(#${this.clipId})"` : "";
      this.parts.push(`<path fill="none" d="${d}"${clip} ${attrs}/>`);
      return this;
    }

    dots(xs, ys, radius, attrs = "") {
      const marks = xs.map((v, i) => {
        const px = r1(this.X(v)), py = r1(this.Y(ys[i]));
        return `M${r1(px - radius)} ${py}a${radius} ${radius} 0 1 0 ${2 * radius} 0` +
               `a${radius} ${radius} 0 1 0 ${-2 * radius} 0`;
      });
      this.parts.push(`<path d="${marks.join("")}" ${attrs}/>`);
      return this;
    }

    hline(v, attrs, label) {
      const py = r1(this.Y(v));
      this.parts.push(`<line x1="${this.x}" x2="${this.x + this.w}" y1="${py}" y2="${py}" ${attrs}/>`);
      if (label) {
        this.parts.push(`<text class="pw-note" x="${this.x + 6}" y="${py - 5}">${esc(label)}</text>`);
      }
      return this;
    }

    vline(v, attrs, label) {
      const px = r1(this.X(v));
      this.parts.push(`<line x1="${px}" x2="${px}" y1="${this.y}" y2="${this.y + this.h}" ${attrs}/>`);
      if (label) {
        this.parts.push(`<text class="pw-note" x="${px}" y="${this.y + 13}" ` +
                        `text-anchor="middle">${esc(label)}</text>`);
      }
      return this;
    }

    svg() { return this.parts.join(""); }
  }

  // A title centred on the figure; squeezed (not cut) if the figure is too
  // narrow for it (about 7 px per character of 13-px bold text).
  function titleText(title, width, y) {
    const fit = title.length * 7.2 > width - 8 ?
      ` textLength="${width - 8}" lengthAdjust="spacingAndGlyphs"` : "";
    return `<text class="pw-title" x="${r1(width / 2)}" y="${y}" text-anchor="middle"${fit}>` +
           `${esc(title)}</text>`;
  }

  // 2^-3 as 2⁻³ (tick labels of a base-2 log axis)
  const SUPERSCRIPT = {"-": "\u207b", 0: "\u2070", 1: "\u00b9", 2: "\u00b2", 3: "\u00b3",
                       4: "\u2074", 5: "\u2075", 6: "\u2076", 7: "\u2077", 8: "\u2078",
                       9: "\u2079"};
  const powerOf2Text = (t) => "2" + String(Math.round(Math.log2(t))).split("")
    .map((c) => SUPERSCRIPT[c]).join("");

  // A legend of line styles, wrapped into rows that fit the width.
  function legend(items, x, y, width) {
    const per = Math.max(1, Math.floor(width / 190));
    const out = items.map((item, i) => {
      const lx = x + (i % per) * (width / per), ly = y + Math.floor(i / per) * 18;
      return `<line x1="${lx}" x2="${lx + 24}" y1="${ly - 4}" y2="${ly - 4}" ${item.attrs}/>` +
             `<text class="pw-tick" x="${lx + 30}" y="${ly}">${esc(item.label)}</text>`;
    });
    return {svg: out.join(""), height: Math.ceil(items.length / per) * 18};
  }

  function stroke(colour, extra = "") {
    return `class="pw-series pw-${colour}" stroke-width="2" ${extra}`;
  }

  function svgDoc(width, height, body) {
    return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${width} ${r1(height)}" ` +
           `width="${width}" height="${r1(height)}" aria-hidden="true" focusable="false">` +
           body + "</svg>";
  }

  // --- a heat map as an 8-bit BMP image (no canvas needed, so it is drawn
  // the same way at build time and in the browser) --------------------------

  // matplotlib's RdBu_r, the book's colour map for tables: -1 blue, 1 red.
  const RDBU_R = ["#053061", "#2166ac", "#4393c3", "#92c5de", "#d1e5f0", "#f7f7f7",
                  "#fddbc7", "#f4a582", "#d6604d", "#b2182b", "#67001f"];

  function rgb(hex) {
    return [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16));
  }

  function colourMap(anchors, levels) {
    const stops = anchors.map(rgb);
    return range(levels).map((k) => {
      const t = k / (levels - 1) * (stops.length - 1);
      const i = Math.min(Math.floor(t), stops.length - 2), f = t - i;
      return stops[i].map((c, j) => Math.round(c + (stops[i + 1][j] - c) * f));
    });
  }

  const B64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

  function base64(bytes) {
    let out = "";
    for (let i = 0; i < bytes.length; i += 3) {
      const n = (bytes[i] << 16) | ((bytes[i + 1] || 0) << 8) | (bytes[i + 2] || 0);
      out += B64[(n >> 18) & 63] + B64[(n >> 12) & 63] +
             (i + 1 < bytes.length ? B64[(n >> 6) & 63] : "=") +
             (i + 2 < bytes.length ? B64[n & 63] : "=");
    }
    return out;
  }

  // rows x cols values in [lo, hi] -> data: URL of an indexed-colour BMP,
  // row 0 at the top.
  function heatmapURL(values, rows, cols, lo, hi, palette) {
    const stride = (cols + 3) & ~3;
    const offset = 14 + 40 + 4 * palette.length;
    const size = offset + stride * rows;
    const bytes = new Uint8Array(size);
    const view = new DataView(bytes.buffer);
    bytes[0] = 66; bytes[1] = 77;  // "BM"
    view.setUint32(2, size, true);
    view.setUint32(10, offset, true);
    view.setUint32(14, 40, true);
    view.setInt32(18, cols, true);
    view.setInt32(22, -rows, true);  // negative: rows from the top down
    view.setUint16(26, 1, true);
    view.setUint16(28, 8, true);
    view.setUint32(34, stride * rows, true);
    view.setUint32(46, palette.length, true);
    palette.forEach(([r, g, b], k) => {
      bytes[54 + 4 * k] = b; bytes[55 + 4 * k] = g; bytes[56 + 4 * k] = r;
    });
    const top = palette.length - 1;
    for (let r = 0; r < rows; r++) {
      for (let c = 0; c < cols; c++) {
        const t = (values[r * cols + c] - lo) / (hi - lo);
        bytes[offset + r * stride + c] = Math.max(0, Math.min(top, Math.round(t * top)));
      }
    }
    return "data:image/bmp;base64," + base64(bytes);
  }

  // --- the formulas ----------------------------------------------------------

  // Chapter 2: omega_i = base^(-2i/d_model), i = 0 .. ceil(d_model/2) - 1.
  function frequencies(d, base) {
    return range(Math.ceil(d / 2)).map((i) => base ** -(2 * i / d));
  }

  // Chapter 2: PE(pos, 2i) = sin(pos omega_i), PE(pos, 2i+1) = cos(pos omega_i).
  function peRow(pos, d, base) {
    const omega = frequencies(d, base);
    return range(d).map((j) => {
      const angle = pos * omega[j >> 1];
      return j % 2 === 0 ? Math.sin(angle) : Math.cos(angle);
    });
  }

  function dot(a, b) {
    let s = 0;
    for (let j = 0; j < a.length; j++) s += a[j] * b[j];
    return s;
  }

  // Chapter 5: f(x, m) = R(m theta_i) x, pair i = (x[2i], x[2i+1]) turned
  // anticlockwise by m theta_i, theta_i = base^(-2i/d).
  function rope(x, m, base) {
    const theta = frequencies(x.length, base);
    const out = new Array(x.length);
    for (let i = 0; i < x.length / 2; i++) {
      const c = Math.cos(m * theta[i]), s = Math.sin(m * theta[i]);
      out[2 * i] = c * x[2 * i] - s * x[2 * i + 1];
      out[2 * i + 1] = s * x[2 * i] + c * x[2 * i + 1];
    }
    return out;
  }

  // Chapter 5: ALiBi's slopes, the recursion of the paper's get_slopes.
  function alibiSlopes(n) {
    const powerOf2 = (k) => {
      const start = 2 ** -(2 ** -(Math.log2(k) - 3));
      return range(k).map((i) => start * start ** i);
    };
    if (Number.isInteger(Math.log2(n))) return powerOf2(n);
    const closest = 2 ** Math.floor(Math.log2(n));
    return powerOf2(closest).concat(
      alibiSlopes(2 * closest).filter((_, i) => i % 2 === 0).slice(0, n - closest));
  }

  // softmax(x) = e^(x - max) / sum, as posenc.softmax.
  function softmax(x) {
    const m = Math.max(...x);
    const e = x.map((v) => Math.exp(v - m));
    const total = e.reduce((a, b) => a + b, 0);
    return e.map((v) => v / total);
  }

  // Chapter 7: each method's frequencies theta_i' (posenc.rope_frequencies,
  // step by step as Transformers' modeling_rope_utils).
  function ropeFrequencies(d, base, type, p) {
    const inv = range(d / 2).map((i) => base ** (-(2 * i) / d));
    const s = p.factor;
    if (type === "linear") return inv.map((t) => t / s);
    if (type === "ntk" || type === "dynamic") {
      let factor = s;
      if (type === "dynamic") {
        const length = Math.max(p.seq_len, p.original);
        factor = factor * length / p.original - (factor - 1);
      }
      const newBase = base * factor ** (d / (d - 2));
      return range(d / 2).map((i) => newBase ** (-(2 * i) / d));
    }
    if (type === "yarn") {
      const pairIndex = (r) => d * Math.log(p.original / (r * 2 * Math.PI)) / (2 * Math.log(base));
      let low = Math.floor(pairIndex(32)), high = Math.ceil(pairIndex(1));
      low = Math.max(low, 0); high = Math.min(high, d - 1);
      if (low === high) high += 0.001;
      return inv.map((t, i) => {
        const ramp = Math.min(Math.max((i - low) / (high - low), 0), 1);
        const keep = 1 - ramp;
        return t / s * (1 - keep) + t * keep;
      });
    }
    if (type === "llama3") {
      const lowF = 1, highF = 4;
      const longEdge = p.original / lowF, shortEdge = p.original / highF;
      return inv.map((t) => {
        const wavelength = 2 * Math.PI / t;
        const scaled = wavelength > longEdge ? t / s : t;
        if (wavelength >= shortEdge && wavelength <= longEdge) {
          const smooth = (p.original / wavelength - lowF) / (highF - lowF);
          return (1 - smooth) * scaled / s + smooth * scaled;
        }
        return scaled;
      });
    }
    return inv;
  }

  // --- the figures -------------------------------------------------------
  //
  // Each has its controls (a slider over a range or over a list of values),
  // compute(params) -> the numbers, and draw(params, values, width) ->
  // {svg, alt, summary}.

  const BASES = [100, 1000, 10000, 100000, 500000, 1000000];
  const WIDTHS = [8, 16, 32, 64, 128, 256, 512];
  const baseText = (b) => thousands(String(b));

  const WIDGETS = {};

  // Chapter 2: the table and its wavelength ladder.
  WIDGETS.ladder = {
    controls: [
      {name: "d", label: "d_model", values: WIDTHS, value: 128},
      {name: "base", label: "base", values: BASES, value: 10000, text: baseText},
    ],
    compute({d, base}) {
      const positions = 100;
      const omega = frequencies(d, base);
      const table = [];
      for (let pos = 0; pos < positions; pos++) table.push(...peRow(pos, d, base));
      return {d, base, positions, omega, wavelength: omega.map((w) => TWO_PI / w), table};
    },
    draw({d, base}, v, W) {
      const left = 62, right = 54;
      const heat = new Panel(left, 30, W - left - right, 180,
                             {domain: [0, d]}, {domain: [v.positions, 0]}, W);
      heat.axes({title: `The table: ${v.positions} positions x ${d} dimensions`,
                 xlabel: "dimension (column)", ylabel: "position", grid: false});
      const url = heatmapURL(v.table, v.positions, d, -1, 1, colourMap(RDBU_R, 256));
      heat.parts.splice(heat.parts.length - 1, 0,
        `<image x="${heat.x}" y="${heat.y}" width="${heat.w}" height="${heat.h}" ` +
        `preserveAspectRatio="none" image-rendering="optimizeSpeed" ` +
        `style="image-rendering:pixelated" href="${url}"/>`);
      // colour key
      const kx = W - right + 12, kw = 10;
      const key = range(11).map((k) => {
        const y = heat.y + (10 - k) * heat.h / 11;
        return `<rect x="${kx}" y="${r1(y)}" width="${kw}" height="${r1(heat.h / 11 + 0.5)}" ` +
               `fill="${RDBU_R[k]}"/>`;
      }).join("") + [[1, 0], [0, 0.5], [-1, 1]].map(([val, f]) =>
        `<text class="pw-tick" x="${kx + kw + 3}" y="${r1(heat.y + f * heat.h + 4)}">${val}</text>`
      ).join("");
      const n = v.wavelength.length;
      const lo = Math.min(1, v.wavelength[0]), hi = Math.max(v.wavelength[n - 1], 1000) * 2;
      const ladder = new Panel(left, 270, W - left - right, 160,
                               {domain: [-0.5, n - 0.5]}, {domain: [lo, hi], log: 10}, W);
      const slow = v.wavelength.filter((l) => l > v.positions).length;
      ladder.axes({title: `Its wavelength ladder: ${n} pairs`, xlabel: "pair i",
                   ylabel: "wavelength"})
        .hline(v.positions, stroke("vermillion", 'stroke-dasharray="6 4"'),
               `${v.positions} positions, the rows above`)
        .dots(range(n), v.wavelength, n > 64 ? 1.6 : 2.6, 'class="pw-fill pw-blue"');
      const alt = `Heat map of the sinusoidal table for d_model = ${d} and base ` +
        `${baseText(base)}: ${v.positions} positions down, ${d} dimensions across, values ` +
        `from -1 (blue) to 1 (red); fine stripes on the left widen towards the right. ` +
        `Below it, the wavelengths of the ${n} pairs on a logarithmic axis, a straight ` +
        `line from ${fmt(v.wavelength[0])} to ${fmt(v.wavelength[n - 1])} positions; ` +
        `${slow} pairs lie above the line at ${v.positions} positions.`;
      const summary = `d_model = ${d}, base = ${baseText(base)}: wavelengths from ` +
        `${fmt(v.wavelength[0])} to ${fmt(v.wavelength[n - 1])} positions, each ` +
        `${fmt(base ** (2 / d), 4)} times the one before; ${slow} of ${n} pairs turn ` +
        `less than once in the ${v.positions} positions of the table.`;
      return {svg: svgDoc(W, 475, heat.svg() + key + ladder.svg()), alt, summary};
    },
  };

  // Chapter 2: PE(p) . PE(p + k) against the offset k.
  WIDGETS.dots = {
    controls: [
      {name: "d", label: "d_model", values: WIDTHS, value: 128},
      {name: "p", label: "position p", min: 0, max: 1000, step: 1, value: 0},
      {name: "base", label: "base", values: BASES, value: 10000, text: baseText},
    ],
    compute({d, p, base}) {
      const offsets = range(201).map((i) => i - 100);
      const here = peRow(p, d, base);
      const dots = offsets.map((k) => dot(here, peRow(p + k, d, base)));
      return {d, p, base, offsets, dots};
    },
    draw({d, p, base}, v, W) {
      const left = 62, right = 16;
      const panel = new Panel(left, 30, W - left - right, 240,
                              {domain: [-100, 100]}, {domain: [-d / 4, d / 2 * 1.05]}, W);
      panel.axes({title: `PE(${p}) . PE(${p} + k), d_model = ${d}`, xlabel: "offset k",
                  ylabel: "dot product"})
        .hline(0, 'class="pw-axis"')
        .line(v.offsets, v.dots, stroke("blue"));
      const at = (k) => v.dots[k + 100];
      let low = 0;
      v.dots.forEach((x, i) => { if (x < v.dots[low]) low = i; });
      const alt = `Line plot of the dot product of the encodings of positions ${p} and ` +
        `${p} + k, for offsets k from -100 to 100, d_model = ${d}, base ${baseText(base)}. ` +
        `The curve is symmetric about k = 0, where it peaks at ${fmt(at(0))}, and falls ` +
        `with ripples to ${fmt(at(100))} at k = 100.`;
      const summary = `p = ${p}: the dot product is ${fmt(at(0), 4)} at k = 0 ` +
        `(d_model/2), ${fmt(at(1), 4)} at k = 1 and ${fmt(at(100), 4)} at k = 100; ` +
        `lowest ${fmt(v.dots[low], 4)} at k = ${v.offsets[low]}. Move p: the curve ` +
        `does not change.`;
      return {svg: svgDoc(W, 315, panel.svg()), alt, summary};
    },
  };

  // Chapter 2: each pair is the hand of a clock, (sin, cos) of pos * omega_i,
  // pointing at 12 o'clock at position 0 and turning clockwise.
  WIDGETS.clock = {
    controls: [
      {name: "pos", label: "position", min: 0, max: 1000, step: 1, value: 3},
      {name: "d", label: "d_model", values: [2, 4, 6, 8, 10, 12, 14, 16], value: 8},
      {name: "base", label: "base", values: [10, 100, 1000, 10000, 100000], value: 10000,
       text: baseText},
    ],
    compute({pos, d, base}) {
      return {pos, d, base, omega: frequencies(d, base), row: peRow(pos, d, base)};
    },
    draw({pos, d, base}, v, W) {
      const n = d / 2;
      const cols = Math.min(n, Math.max(2, Math.floor(W / 150)));
      const cell = W / cols, radius = Math.min(52, cell / 2 - 14);
      const rows = Math.ceil(n / cols), cellH = 2 * radius + 58, top = 22;
      const parts = [titleText(`The ${n} hands at position ${pos}, base ${baseText(base)}`, W, 14)];
      for (let i = 0; i < n; i++) {
        const cx = r1((i % cols + 0.5) * cell);
        const cy = r1(top + Math.floor(i / cols) * cellH + radius + 24);
        const s = v.row[2 * i], c = v.row[2 * i + 1];
        const tx = r1(cx + radius * s), ty = r1(cy - radius * c);
        const turns = pos * v.omega[i] / TWO_PI;
        const part = turns - Math.floor(turns);
        const large = part > 0.5 ? 1 : 0;
        parts.push(
          `<circle class="pw-dial" cx="${cx}" cy="${cy}" r="${radius}"/>` +
          (part > 1e-9 ? `<path class="pw-sweep" d="M${cx} ${cy}L${cx} ${r1(cy - radius)}` +
            `A${radius} ${radius} 0 ${large} 1 ${tx} ${ty}Z"/>` : "") +
          `<line class="pw-axis" x1="${cx}" x2="${cx}" y1="${r1(cy - radius)}" y2="${r1(cy - radius + 6)}"/>` +
          `<line ${stroke("vermillion", 'stroke-linecap="round" stroke-width="3"')} ` +
          `x1="${cx}" y1="${cy}" x2="${tx}" y2="${ty}"/>` +
          `<circle class="pw-fill pw-vermillion" cx="${tx}" cy="${ty}" r="4"/>` +
          `<text class="pw-label" x="${cx}" y="${r1(cy - radius - 8)}" text-anchor="middle">` +
          `pair ${i}</text>` +
          `<text class="pw-tick" x="${cx}" y="${r1(cy + radius + 16)}" text-anchor="middle">` +
          `${esc(fmt(turns, 3))} turns</text>` +
          `<text class="pw-tick" x="${cx}" y="${r1(cy + radius + 30)}" text-anchor="middle">` +
          `sin ${esc(fmt(s, 3))}, cos ${esc(fmt(c, 3))}</text>`);
      }
      const alt = `${n} clock faces, one per pair of the sinusoidal encoding at position ` +
        `${pos} (d_model = ${d}, base ${baseText(base)}). Each hand points at ` +
        `(sin, cos) of pos times the pair's frequency: ` +
        range(n).map((i) => `pair ${i} has turned ${fmt(pos * v.omega[i] / TWO_PI, 3)} ` +
                            `times`).join(", ") + ".";
      const summary = `Position ${pos}: pair 0 turns by ${fmt(v.omega[0], 3)} radian per ` +
        `position, pair ${n - 1} by ${fmt(v.omega[n - 1], 3)}; the shaded sector is the ` +
        `angle pos x omega_i past its last full turn.`;
      return {svg: svgDoc(W, top + rows * cellH, parts.join("")), alt, summary};
    },
  };

  // Chapter 5: the RoPE score of a query and a key against their offset.
  const HEAD = 64;
  WIDGETS.rope = {
    controls: [
      {name: "base", label: "base", values: BASES, value: 10000, text: baseText},
      {name: "first", label: "first pair used", min: 0, max: HEAD / 2 - 1, step: 1, value: 0},
      {name: "count", label: "pairs used", min: 1, max: HEAD / 2, step: 1, value: HEAD / 2},
      {name: "phi", label: "angle from q to k (degrees)", min: 0, max: 180, step: 15, value: 0},
    ],
    compute({base, first, count, phi}) {
      const last = Math.min(first + count, HEAD / 2);
      const used = last - first;
      const q = new Array(HEAD).fill(0), k = new Array(HEAD).fill(0);
      const a = phi * Math.PI / 180;
      for (let i = first; i < last; i++) {
        q[2 * i] = 1; q[2 * i + 1] = 0;
        k[2 * i] = Math.cos(a); k[2 * i + 1] = Math.sin(a);
      }
      const m = 400;  // the query's position; keys at n = m - distance
      const distance = range(m + 1);
      const rq = rope(q, m, base);
      const score = distance.map((t) => dot(rq, rope(k, m - t, base)) / used);
      return {base, first, last, used, phi, q, k, m, distance, score};
    },
    draw({base}, v, W) {
      const left = 62, right = 16;
      const panel = new Panel(left, 30, W - left - right, 240,
                              {domain: [0, v.m]}, {domain: [-1.05, 1.05]}, W);
      const pairs = v.used === 1 ? `pair ${v.first}` : `pairs ${v.first} to ${v.last - 1}`;
      panel.axes({title: `RoPE score, ${pairs} of ${HEAD / 2}, base ${baseText(base)}`,
                  xlabel: "distance m - n (query at m = 400, key at n)",
                  ylabel: "score / pairs used"})
        .hline(0, 'class="pw-axis"')
        .line(v.distance, v.score, stroke("blue"));
      const tail = v.score.slice(200);
      const spread = [Math.min(...tail), Math.max(...tail)];
      const alt = `Line plot of the RoPE score of one query and one key, divided by the ` +
        `${v.used} pairs they use (${pairs}, head width ${HEAD}, base ${baseText(base)}, ` +
        `key turned ${v.phi} degrees from the query), against the distance from 0 to 400. ` +
        `It starts at ${fmt(v.score[0], 3)}; between distances 200 and 400 it stays ` +
        `between ${fmt(spread[0], 3)} and ${fmt(spread[1], 3)}.`;
      const summary = `${pairs}, key at ${v.phi} degrees: score ${fmt(v.score[0], 4)} at ` +
        `distance 0, ${fmt(v.score[1], 4)} at 1, between ${fmt(spread[0], 3)} and ` +
        `${fmt(spread[1], 3)} from 200 to 400.`;
      return {svg: svgDoc(W, 315, panel.svg()), alt, summary};
    },
  };

  // Chapter 5: ALiBi's slopes, and the attention weights they give the keys
  // of the last query when every content score is equal.
  WIDGETS.alibi = {
    controls: [
      {name: "heads", label: "heads", min: 1, max: 64, step: 1, value: 12},
      {name: "head", label: "head shown", min: 0, max: 11, step: 1, value: 0,
       maxFrom: (p) => p.heads - 1},
      {name: "length", label: "sequence length", values: [16, 32, 64, 128, 256], value: 64},
    ],
    compute({heads, head, length}) {
      const slopes = alibiSlopes(heads);
      // B[h][i][j] = -m_h (i - j) for the last query i = length - 1
      const weights = slopes.map((m) => softmax(range(length).map((j) => -m * (length - 1 - j))));
      return {heads, head, length, slopes, weights};
    },
    draw({heads, head, length}, v, W) {
      const left = 62, right = 16;
      const lo = Math.min(...v.slopes), hi = Math.max(...v.slopes);
      const top = new Panel(left, 30, W - left - right, 150,
                            {domain: [-0.5, heads - 0.5], ticks: heads * 24 <= W - left - right ? range(heads) : null},
                            {domain: [Math.min(lo / 1.5, 2 ** -8), 1], log: 2,
                             format: powerOf2Text}, W);
      top.axes({title: `Slopes of ${heads} heads`, xlabel: "head index",
                ylabel: "slope m (log)"})
        .dots(range(heads), v.slopes, 3, 'class="pw-fill pw-blue"')
        .dots([head], [v.slopes[head]], 6, 'class="pw-ring pw-vermillion" fill="none" stroke-width="2"');
      const distance = range(length);
      const bottom = new Panel(left, 250, W - left - right, 170,
                               {domain: [0, length - 1]}, {domain: [0, 1]}, W);
      bottom.axes({title: `Weights of the last query's keys (head ${head}: m = ${fmt(v.slopes[head], 4)})`,
                   xlabel: "distance to the query (i - j)", ylabel: "attention weight"});
      v.weights.forEach((w, h) => {
        if (h !== head) bottom.line(distance, distance.map((t) => w[length - 1 - t]), 'class="pw-faint"');
      });
      bottom.line(distance, distance.map((t) => v.weights[head][length - 1 - t]),
                  stroke("vermillion"));
      const w = v.weights[head];
      const half = distance.find((t) => w[length - 1 - t] < w[length - 1] / 2);
      const alt = `Two plots for ALiBi with ${heads} heads. Above, the slope of each head ` +
        `on a log scale, from ${fmt(v.slopes[0], 3)} for head 0` +
        `${Number.isInteger(Math.log2(heads)) ? "" : ", not sorted since the head count is not a power of two"}; ` +
        `head ${head} is circled (m = ${fmt(v.slopes[head], 3)}). Below, the attention weights ` +
        `of the last of ${length} queries against the distance to each key, when all content ` +
        `scores are equal: head ${head} gives its own position ${fmt(w[length - 1], 3)}` +
        (half === undefined ? " and decays by less than half over the sequence."
          : ` and half as much at distance ${half}.`);
      const summary = `${heads} heads, slopes 2^-e with e = ` +
        v.slopes.slice(0, 16).map((m) => num(-Math.log2(m))).join(", ") +
        (heads > 16 ? ", ..." : "") + `. Head ${head}: weight ${fmt(w[length - 1], 3)} ` +
        `on the query's own position, ${fmt(w[0], 3)} on the first key.`;
      return {svg: svgDoc(W, 465, top.svg() + bottom.svg()), alt, summary};
    },
  };

  // Chapter 7: by how much each method divides the frequency of each pair.
  const METHODS = [
    {type: "linear", label: "PI (linear)", attrs: stroke("black")},
    {type: "ntk", label: "NTK-aware, fixed", attrs: stroke("blue", 'stroke-dasharray="7 4"')},
    {type: "dynamic", label: "dynamic NTK at length l", attrs: stroke("grey", 'stroke-dasharray="2 3"')},
    {type: "yarn", label: "YaRN", attrs: stroke("vermillion")},
    {type: "llama3", label: "Llama 3.1's rule", attrs: stroke("green", 'stroke-dasharray="9 3 2 3"')},
  ];
  WIDGETS.stretch = {
    controls: [
      {name: "factor", label: "factor s", values: [1, 1.5, 2, 3, 4, 6, 8, 12, 16, 32], value: 4},
      {name: "original", label: "training length L",
       values: [1024, 2048, 4096, 8192, 16384, 32768], value: 4096, text: baseText},
      {name: "ratio", label: "dynamic NTK: length l / L", values: [1, 1.5, 2, 3, 4, 8, 16],
       value: 2},
      {name: "base", label: "base", values: [10000, 500000], value: 10000, text: baseText},
    ],
    compute({factor, original, ratio, base}) {
      const d = 128;
      const p = {factor, original, seq_len: ratio * original};
      const theta = ropeFrequencies(d, base, "default", p);
      const divisor = {};
      for (const {type} of METHODS) {
        const params = type === "dynamic" ? {...p, factor: 1} : p;
        const inv = ropeFrequencies(d, base, type, params);
        divisor[type] = theta.map((t, i) => t / inv[i]);
      }
      const attentionFactor = factor > 1 ? 0.1 * Math.log(factor) + 1 : 1;
      return {d, base, factor, original, seq_len: p.seq_len, theta,
              wavelength: theta.map((t) => TWO_PI / t), divisor, attentionFactor};
    },
    draw({factor, original, base}, v, W) {
      const left = 62, right = 16;
      const top = Math.max(factor, ...v.divisor.dynamic) * 1.1;
      const panel = new Panel(left, 30, W - left - right, 240,
                              {domain: [4, v.wavelength[v.wavelength.length - 1] * 1.5], log: 10},
                              {domain: [0.9, top]}, W);
      panel.axes({title: `Divisor per pair, s = ${factor}, base ${baseText(base)}`,
                  xlabel: "wavelength (positions)", ylabel: "frequency divided by"})
        .clip("pw-stretch-clip");
      for (const [edge, name] of [[original / 32, "L/32"], [original / 4, "L/4"], [original, "L"]]) {
        panel.vline(edge, 'class="pw-grid-strong"', name);
      }
      for (const m of METHODS) panel.line(v.wavelength, v.divisor[m.type], m.attrs);
      const key = legend(METHODS.map((m) => ({label: m.label, attrs: m.attrs})), left, 318,
                         W - left - right);
      const at = (type, i) => fmt(v.divisor[type][i], 3);
      const last = v.wavelength.length - 1;
      const alt = `Line plot, for each of the 64 pairs of a head of width 128 with base ` +
        `${baseText(base)}, of the factor by which each method divides its frequency, ` +
        `against its wavelength on a log axis, for s = ${factor} and L = ${thousands(String(original))}. ` +
        `PI divides every pair by ${at("linear", 0)}; NTK-aware rises from ${at("ntk", 0)} ` +
        `to ${at("ntk", last)}; dynamic NTK at ${thousands(String(v.seq_len))} tokens reaches ` +
        `${at("dynamic", last)}; YaRN and Llama 3.1 keep the fast pairs (${at("yarn", 0)}, ` +
        `${at("llama3", 0)}) and divide the slowest by ${at("yarn", last)} and ${at("llama3", last)}.`;
      const summary = `s = ${factor}, L = ${thousands(String(original))}, dynamic NTK at ` +
        `l = ${thousands(String(v.seq_len))}: slowest pair divided by ${at("linear", last)} ` +
        `(PI), ${at("ntk", last)} (NTK), ${at("dynamic", last)} (dynamic), ` +
        `${at("yarn", last)} (YaRN), ${at("llama3", last)} (Llama 3.1); YaRN's ` +
        `attention factor ${fmt(v.attentionFactor, 4)}.`;
      return {svg: svgDoc(W, 318 + key.height + 4, panel.svg() + key.svg), alt, summary};
    },
  };

  // --- markup, settings and the figure in the page ----------------------------

  function controlValue(spec, index) {
    return spec.values ? spec.values[index] : index;
  }

  function controlText(spec, value) {
    return (spec.text || num)(value);
  }

  function defaults(name) {
    const params = {};
    for (const c of WIDGETS[name].controls) params[c.name] = c.value;
    return params;
  }

  function render(name, params, width) {
    const widget = WIDGETS[name];
    const values = widget.compute(params);
    return {values, ...widget.draw(params, values, width)};
  }

  const STATIC_WIDTH = 640;

  // The figure's inner HTML at its default settings (built into the page).
  function markup(name, id) {
    const widget = WIDGETS[name];
    if (!widget) throw new Error(`unknown widget ${name}; known: ${Object.keys(WIDGETS)}`);
    const params = defaults(name);
    const out = render(name, params, STATIC_WIDTH);
    const controls = widget.controls.map((c) => {
      const value = c.value;
      const index = c.values ? c.values.indexOf(value) : value;
      const [min, max, step] = c.values ? [0, c.values.length - 1, 1] :
        [c.min, c.maxFrom ? c.maxFrom(params) : c.max, c.step];
      const text = controlText(c, value);
      return `<div class="pw-control"><label for="${id}-${c.name}">${esc(c.label)}</label>` +
        `<output id="${id}-${c.name}-out" for="${id}-${c.name}">${esc(text)}</output>` +
        `<input type="range" id="${id}-${c.name}" name="${c.name}" min="${min}" max="${max}" ` +
        `step="${step}" value="${index}" aria-valuetext="${esc(text)}"></div>`;
    }).join("");
    return `<div class="pw-controls" role="group" aria-label="Settings of the figure">` +
      `${controls}</div>` +
      `<div class="pw-figure" role="img" aria-label="${esc(out.alt)}">${out.svg}</div>` +
      `<p class="pw-summary" aria-live="polite">${esc(out.summary)}</p>`;
  }

  const live = new Map();

  function read(figure, widget) {
    const params = {};
    for (const c of widget.controls) {
      const input = figure.querySelector(`input[name="${c.name}"]`);
      params[c.name] = controlValue(c, Number(input.value));
    }
    return params;
  }

  function update(figure) {
    const name = figure.dataset.widget;
    const widget = WIDGETS[name];
    const params = read(figure, widget);
    for (const c of widget.controls) {  // a slider whose range depends on another
      if (!c.maxFrom) continue;
      const input = figure.querySelector(`input[name="${c.name}"]`);
      const max = c.maxFrom(params);
      input.max = String(max);
      if (Number(input.value) > max) input.value = String(max);
      params[c.name] = controlValue(c, Number(input.value));
    }
    for (const c of widget.controls) {
      const input = figure.querySelector(`input[name="${c.name}"]`);
      const text = controlText(c, params[c.name]);
      input.setAttribute("aria-valuetext", text);
      figure.querySelector(`output[for="${input.id}"]`).textContent = text;
    }
    const box = figure.querySelector(".pw-figure");
    const width = Math.round(Math.max(260, Math.min(760, box.clientWidth || STATIC_WIDTH)));
    const out = render(name, params, width);
    box.innerHTML = out.svg;
    box.setAttribute("aria-label", out.alt);
    figure.querySelector(".pw-summary").textContent = out.summary;
    live.set(figure, {name, params, width, ...out.values});
  }

  function attach(figure) {
    if (!WIDGETS[figure.dataset.widget] || live.has(figure)) return;
    figure.addEventListener("input", () => update(figure));
    figure.classList.add("pw-live");
    update(figure);
    if (typeof ResizeObserver === "function") {
      let last = figure.querySelector(".pw-figure").clientWidth;
      new ResizeObserver(() => {
        const now = figure.querySelector(".pw-figure").clientWidth;
        if (Math.abs(now - last) > 1) { last = now; update(figure); }
      }).observe(figure.querySelector(".pw-figure"));
    }
  }

  const api = {
    widgets: WIDGETS, render, markup, defaults,
    values: (figure) => live.get(figure) || null,
    formulas: {frequencies, peRow, rope, alibiSlopes, softmax, ropeFrequencies},
  };
  root.PosencWidgets = api;

  if (typeof document !== "undefined") {
    const start = () => document.querySelectorAll("figure.posenc-widget").forEach(attach);
    if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
    else start();
  }
})(typeof window !== "undefined" ? window : globalThis);
