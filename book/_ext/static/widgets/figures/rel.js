// Chapter 5 (05_rel): the RoPE score against the distance, ALiBi's slopes and weights
// (a figure file: book/_ext/posenc_widgets.py says how a chapter adds one).
(function (PW) {
  "use strict";

  const {range, fmt, num, Panel, powerOf2Text, stroke, svgDoc, BASES, baseText} = PW.kit;
  const {dot, rope, softmax} = PW.formulas;

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
  PW.formulas.alibiSlopes = alibiSlopes;

  // Chapter 5: the RoPE score of a query and a key against their offset.
  const HEAD = 64;
  PW.register("rope", {
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
                  xlabel: "distance m \u2212 n (query at m = 400, key at n)",
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
  });

  // Chapter 5: ALiBi's slopes, and the attention weights they give the keys
  // of the last query when every content score is equal.
  PW.register("alibi", {
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
                   xlabel: "distance to the query (i \u2212 j)", ylabel: "attention weight"});
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
      const summary = `${heads} heads, slopes 2\u207b\u1d49 with e = ` +
        v.slopes.slice(0, 16).map((m) => num(-Math.log2(m))).join(", ") +
        (heads > 16 ? ", \u2026" : "") + `. Head ${head}: weight ${fmt(w[length - 1], 3)} ` +
        `on the query's own position, ${fmt(w[0], 3)} on the first key.`;
      return {svg: svgDoc(W, 465, top.svg() + bottom.svg()), alt, summary};
    },
  });
})(globalThis.PosencWidgets);
