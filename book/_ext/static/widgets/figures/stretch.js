// Chapter 7 (07_stretch): the divisor of every pair, for each way of stretching RoPE
// (a figure file: book/_ext/posenc_widgets.py says how a chapter adds one).
(function (PW) {
  "use strict";

  const {TWO_PI, range, thousands, fmt, Panel, legend, stroke, svgDoc, baseText} = PW.kit;

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
  PW.formulas.ropeFrequencies = ropeFrequencies;

  // Chapter 7: by how much each method divides the frequency of each pair.
  const METHODS = [
    {type: "linear", label: "PI (linear)", attrs: stroke("black")},
    {type: "ntk", label: "NTK-aware, fixed", attrs: stroke("blue", 'stroke-dasharray="7 4"')},
    {type: "dynamic", label: "dynamic NTK at length l", attrs: stroke("grey", 'stroke-dasharray="2 3"')},
    {type: "yarn", label: "YaRN", attrs: stroke("vermillion")},
    {type: "llama3", label: "Llama 3.1's rule", attrs: stroke("green", 'stroke-dasharray="9 3 2 3"')},
  ];
  PW.register("stretch", {
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
      // the divisors on a log axis, with ticks at 1, 2, 4, 8, ... and at s
      const largest = Math.max(factor, ...v.divisor.dynamic);
      const top = largest * 1.5;  // room above the lines for the labels of L/32, L/4, L
      const ticks = [];
      for (let t = 1; t <= largest * 1.001; t *= 2) ticks.push(t);
      if (!ticks.includes(factor)) ticks.push(factor);
      const panel = new Panel(left, 30, W - left - right, 240,
                              {domain: [4, v.wavelength[v.wavelength.length - 1] * 1.5], log: 10},
                              {domain: [1 / 1.15, top], log: 2, ticks: ticks.sort((a, b) => a - b)}, W);
      panel.axes({title: `Divisor per pair, s = ${factor}, base ${baseText(base)}`,
                  xlabel: "wavelength (positions)", ylabel: "frequency divided by (log)"})
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
  });
})(globalThis.PosencWidgets);
