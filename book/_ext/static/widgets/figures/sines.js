// Chapter 2 (02_sines): the table and its ladder, the dot products, the clock hands
// (a figure file: book/_ext/posenc_widgets.py says how a chapter adds one).
(function (PW) {
  "use strict";

  const {TWO_PI, range, fmt, num, esc, r1, Panel, titleText, stroke, svgDoc, RDBU_R, colourMap,
         heatmapURL, BASES, WIDTHS, baseText} = PW.kit;
  const {frequencies, peRow, dot} = PW.formulas;

  // Chapter 2: the table and its wavelength ladder.
  PW.register("ladder", {
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
      heat.axes({title: `The table: ${v.positions} positions \u00d7 ${d} dimensions`,
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
        `<text class="pw-tick" x="${kx + kw + 3}" y="${r1(heat.y + f * heat.h + 4)}">${num(val)}</text>`
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
        `from \u22121 (blue) to 1 (red); fine stripes on the left widen towards the right. ` +
        `Below it, the wavelengths of the ${n} pairs on a logarithmic axis, a straight ` +
        `line from ${fmt(v.wavelength[0])} to ${fmt(v.wavelength[n - 1])} positions; ` +
        `${slow} pairs lie above the line at ${v.positions} positions.`;
      const summary = `d_model = ${d}, base = ${baseText(base)}: wavelengths from ` +
        `${fmt(v.wavelength[0])} to ${fmt(v.wavelength[n - 1])} positions, each ` +
        `${fmt(base ** (2 / d), 4)} times the one before; ${slow} of ${n} pairs turn ` +
        `less than once in the ${v.positions} positions of the table.`;
      return {svg: svgDoc(W, 475, heat.svg() + key + ladder.svg()), alt, summary};
    },
  });

  // Chapter 2: PE(p) . PE(p + k) against the offset k.
  PW.register("dots", {
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
      // the y axis from the data's lowest value (the curve never runs over
      // the tick labels), up to d_model/2, the value at k = 0
      const lowest = Math.min(...v.dots), pad = 0.05 * (d / 2 - lowest);
      const panel = new Panel(left, 30, W - left - right, 240,
                              {domain: [-100, 100]}, {domain: [lowest - pad, d / 2 + pad]}, W);
      // offsets k < -p reach positions below 0: the formula still gives them
      // a row, but no sequence has them
      const negative = p < 100;
      if (negative) {
        const x0 = panel.X(-100), x1 = panel.X(-p);
        panel.parts.push(`<rect class="pw-shade" x="${r1(x0)}" y="${panel.y}" ` +
                         `width="${r1(x1 - x0)}" height="${panel.h}"/>`);
      }
      panel.axes({title: `PE(${p}) \u00b7 PE(${p} + k), d_model = ${d}`, xlabel: "offset k",
                  ylabel: "dot product"})
        .clip(`pw-dots-clip-${d}-${p}`)
        .hline(0, 'class="pw-axis"')
        .line(v.offsets, v.dots, stroke("blue"));
      if (negative && p <= 60) {
        panel.parts.push(`<text class="pw-note" x="${r1(panel.X(-100) + 4)}" y="${panel.y + 13}">` +
                         `k < ${p ? "\u2212" + p : 0}: negative positions</text>`);
      }
      const at = (k) => v.dots[k + 100];
      // the lowest dot product; the curve is symmetric in k, so the lowest
      // value comes twice (up to rounding): name it by |k|, as ±k
      const low = Math.min(...v.dots), tie = 1e-9 * d;
      const lows = v.offsets.filter((k) => at(k) <= low + tie);
      const far = Math.min(...lows.map(Math.abs));
      const lowAt = lows.includes(far) && lows.includes(-far) && far > 0 ? `\u00b1${far}` :
        String(lows.find((k) => Math.abs(k) === far)).replace("-", "\u2212");
      const alt = `Line plot of the dot product of the encodings of positions ${p} and ` +
        `${p} + k, for offsets k from \u2212100 to 100, d_model = ${d}, base ${baseText(base)}. ` +
        `The curve is symmetric about k = 0, where it peaks at ${fmt(at(0))}, and falls ` +
        `with ripples to ${fmt(at(100))} at k = 100.` +
        (negative ? ` Offsets below \u2212${p} are shaded: there p + k is a negative position.` : "");
      const summary = `p = ${p}: the dot product is ${fmt(at(0), 4)} at k = 0 ` +
        `(d_model/2), ${fmt(at(1), 4)} at k = 1 and ${fmt(at(100), 4)} at k = 100; ` +
        `lowest ${fmt(low, 4)} at k = ${lowAt}. Move p: the curve does not change.`;
      return {svg: svgDoc(W, 315, panel.svg()), alt, summary};
    },
  });

  // Chapter 2: each pair is the hand of a clock, (sin, cos) of pos * omega_i,
  // pointing at 12 o'clock at position 0 and turning clockwise.
  PW.register("clock", {
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
        `(sin, cos) of pos\u00b7\u03c9\u1d62, pos times the pair's frequency: ` +
        range(n).map((i) => `pair ${i} has turned ${fmt(pos * v.omega[i] / TWO_PI, 3)} ` +
                            `times`).join(", ") + ".";
      const summary = `Position ${pos}: pair 0 turns by ${fmt(v.omega[0], 3)} radian per ` +
        `position, pair ${n - 1} by ${fmt(v.omega[n - 1], 3)}; the shaded sector is the ` +
        `angle pos\u00b7\u03c9\u1d62 past its last full turn.`;
      return {svg: svgDoc(W, top + rows * cellH, parts.join("")), alt, summary};
    },
  });
})(globalThis.PosencWidgets);
