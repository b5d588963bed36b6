// Chapter 10 (10_generate): which keys each query sees, and at which offset,
// for a full cache, a window, sinks and a window, and chunks
// (a figure file: book/_ext/posenc_widgets.py says how a chapter adds one).
(function (PW) {
  "use strict";

  const {range, r1, svgDoc, titleText} = PW.kit;

  // Chapter 10: posenc.seen_offsets. Tokens 0 .. n-1 are read one at a time
  // into a cache (posenc.KVCache): "full" keeps them all, "window" the last
  // `size`, "sinks" the first `sinks` and the last size - sinks, "chunks" the
  // last `size` (a window cache) of which the query sees its own chunk.
  // offsets[t][j]: query t sees key j at this offset, its position minus the
  // key's (in the text, or by place in the cache); -1: not seen.
  function seenOffsets(policy, n, size, sinks, positions) {
    const offsets = range(n).map(() => new Array(n).fill(-1));
    const window = policy === "full" ? Infinity : size;
    const keep = policy === "sinks" ? sinks : 0;
    let kept = [];  // text positions, oldest first
    for (let t = 0; t < n; t++) {
      kept.push(t);
      if (kept.length > window) {
        kept = kept.filter((p, i) => p < keep || i >= kept.length - (window - keep));
      }
      const where = positions === "cache" ? kept.map((_, i) => i) : kept;
      const me = where[where.length - 1];
      kept.forEach((p, i) => {
        if (policy === "chunks" && Math.floor(p / size) !== Math.floor(t / size)) return;
        offsets[t][p] = me - where[i];
      });
    }
    return offsets;
  }
  PW.formulas.seenOffsets = seenOffsets;

  const POLICIES = ["full", "window", "sinks", "chunks"];
  const POLICY_TEXT = {full: "full cache", window: "sliding window", sinks: "sinks + window",
                       chunks: "chunks"};
  const list = (xs) => xs.join(", ");

  PW.register("cache-offsets", {
    controls: [
      {name: "policy", label: "policy", values: POLICIES, value: "sinks",
       text: (p) => POLICY_TEXT[p]},
      {name: "n", label: "tokens read", min: 2, max: 24, step: 1, value: 16},
      {name: "size", label: "cache entries (window, or chunk size)", min: 2, max: 12, step: 1,
       value: 6},
      {name: "sinks", label: "sinks (for sinks + window)", min: 1, max: 11, step: 1, value: 2,
       maxFrom: (p) => p.size - 1},
      {name: "positions", label: "positions", values: ["cache", "text"], value: "cache",
       text: (p) => (p.startsWith("c") ? "places in the cache" : "text positions")},
    ],
    compute({policy, n, size, sinks, positions}) {
      const s = Math.min(sinks, size - 1);
      return {policy, n, size, sinks: s, positions, offsets: seenOffsets(policy, n, size, s, positions)};
    },
    draw({policy}, v, W) {
      const n = v.n, left = 54, top = 34, right = 12;
      const cell = Math.min(28, Math.floor((W - left - right) / n));
      const side = cell * n;
      const x0 = left + Math.floor((W - left - right - side) / 2), y0 = top;
      const largest = Math.max(...v.offsets.map((row) => Math.max(...row)));
      const big = cell >= (largest >= 10 ? 22 : 16);  // room for the offset in each cell
      const parts = [];
      // a faint grid of every query and key
      for (let i = 0; i <= n; i++) {
        parts.push(`<line class="pw-grid" x1="${x0}" x2="${x0 + side}" y1="${y0 + i * cell}" ` +
                   `y2="${y0 + i * cell}"/>`);
        parts.push(`<line class="pw-grid" x1="${x0 + i * cell}" x2="${x0 + i * cell}" y1="${y0}" ` +
                   `y2="${y0 + side}"/>`);
      }
      // the seen cells: sinks in vermillion, the others blue; outlined with the
      // offset inside when there is room, filled otherwise
      const cells = {blue: "", vermillion: ""};
      const labels = [];
      const inset = big ? 1.5 : 1;
      v.offsets.forEach((row, t) => row.forEach((o, j) => {
        if (o < 0) return;
        const colour = policy === "sinks" && j < v.sinks ? "vermillion" : "blue";
        const cx = x0 + j * cell + inset, cy = y0 + t * cell + inset, w = cell - 2 * inset;
        cells[colour] += `M${r1(cx)} ${r1(cy)}h${r1(w)}v${r1(w)}h${r1(-w)}Z`;
        if (big) {
          labels.push(`<text class="pw-tick" x="${r1(x0 + (j + 0.5) * cell)}" ` +
                      `y="${r1(y0 + (t + 0.5) * cell + 4)}" text-anchor="middle">${o}</text>`);
        }
      }));
      for (const [colour, d] of Object.entries(cells)) {
        if (!d) continue;
        parts.push(big ? `<path d="${d}" class="pw-series pw-${colour}" stroke-width="2"/>`
                       : `<path d="${d}" class="pw-fill pw-${colour}"/>`);
      }
      parts.push(...labels);
      // ticks every few tokens, and the axis labels
      const every = Math.max(1, Math.ceil(22 / cell));
      for (let i = 0; i < n; i += every) {
        const c = (i + 0.5) * cell;
        parts.push(`<text class="pw-tick" x="${r1(x0 + c)}" y="${y0 + side + 15}" ` +
                   `text-anchor="middle">${i}</text>`);
        parts.push(`<text class="pw-tick" x="${x0 - 6}" y="${r1(y0 + c + 4)}" ` +
                   `text-anchor="end">${i}</text>`);
      }
      parts.push(`<text class="pw-label" x="${r1(x0 + side / 2)}" y="${y0 + side + 32}" ` +
                 `text-anchor="middle">key (token)</text>`);
      const cy = r1(y0 + side / 2), cx = x0 - 32;
      parts.push(`<text class="pw-label" x="${cx}" y="${cy}" text-anchor="middle" ` +
                 `transform="rotate(-90 ${cx} ${cy})">query (token)</text>`);
      const setting = {full: "a full cache", window: `a window of ${v.size}`,
                       sinks: `${v.sinks} sinks + a window, ${v.size} entries`,
                       chunks: `chunks of ${v.size}`}[policy];
      const where = v.positions === "cache" ? "places in the cache" : "text positions";
      parts.push(titleText(`Keys each query sees: ${setting}, ${where}`, W, 20));

      const last = v.offsets[n - 1];
      const seen = range(n).filter((j) => last[j] >= 0);
      const alt = `A grid of ${n} queries (rows, token 0 at the top) by ${n} keys (columns) ` +
        `for ${setting}, with ${where}: each key a query sees is marked` +
        (big ? " with the offset at which it sees it" : "") +
        (policy === "sinks" ? `, the ${v.sinks} sink columns in vermillion` : "") +
        `. The last query, token ${n - 1}, sees tokens ${list(seen)} at offsets ` +
        `${list(seen.map((j) => last[j]))}. The largest offset any query sees is ${largest}.`;
      const summary = `Token ${n - 1} sees ${seen.length} keys: tokens ${list(seen)}, at offsets ` +
        `${list(seen.map((j) => last[j]))}; largest offset seen by any query: ${largest}.`;
      return {svg: svgDoc(W, y0 + side + 42, parts.join("")), alt, summary};
    },
  });
})(globalThis.PosencWidgets);
