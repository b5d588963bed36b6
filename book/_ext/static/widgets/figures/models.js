// Chapter 9 (09_models): the frequency ladder of a family, from its own config
// (a figure file: book/_ext/posenc_widgets.py says how a chapter adds one).
(function (PW) {
  "use strict";

  const {TWO_PI, range, thousands, fmt, num, esc, Panel, legend, stroke, svgDoc} = PW.kit;

  // The rope_parameters and head widths of Transformers 5.24.0's configuration
  // classes at their defaults, as posenc.transformers_reference() holds them
  // (tests/book/widget_checks/models.py checks every entry against it).
  const MODELS = [
    {"label": "GPT-NeoX", "config_class": "GPTNeoXConfig", "layer_type": null, "head_dim": 96, "params": {"rope_theta": 10000.0, "partial_rotary_factor": 0.25, "rope_type": "default"}, "window": null},
    {"label": "Phi-2", "config_class": "PhiConfig", "layer_type": null, "head_dim": 64, "params": {"rope_theta": 10000.0, "partial_rotary_factor": 0.5, "rope_type": "default"}, "window": null},
    {"label": "StableLM", "config_class": "StableLmConfig", "layer_type": null, "head_dim": 80, "params": {"rope_theta": 10000.0, "partial_rotary_factor": 0.25, "rope_type": "default"}, "window": null},
    {"label": "Llama", "config_class": "LlamaConfig", "layer_type": null, "head_dim": 128, "params": {"rope_theta": 10000.0, "rope_type": "default"}, "window": null},
    {"label": "Qwen2-VL, text", "config_class": "Qwen2VLTextConfig", "layer_type": null, "head_dim": 128, "params": {"rope_theta": 1000000.0, "rope_type": "default"}, "window": null},
    {"label": "Llama 4", "config_class": "Llama4TextConfig", "layer_type": null, "head_dim": 128, "params": {"rope_theta": 500000.0, "rope_type": "default"}, "window": 8192},
    {"label": "Gemma 3, local layers", "config_class": "Gemma3TextConfig", "layer_type": "sliding_attention", "head_dim": 256, "params": {"rope_type": "default", "rope_theta": 10000.0}, "window": 4096},
    {"label": "Gemma 3, global layers", "config_class": "Gemma3TextConfig", "layer_type": "full_attention", "head_dim": 256, "params": {"rope_type": "default", "rope_theta": 1000000.0}, "window": null},
    {"label": "Gemma 4, local layers", "config_class": "Gemma4TextConfig", "layer_type": "sliding_attention", "head_dim": 256, "params": {"rope_type": "default", "rope_theta": 10000.0}, "window": 512},
    {"label": "Gemma 4, global layers", "config_class": "Gemma4TextConfig", "layer_type": "full_attention", "head_dim": 512, "params": {"rope_type": "proportional", "partial_rotary_factor": 0.25, "rope_theta": 1000000.0}, "window": null},
    {"label": "GPT-OSS (YaRN)", "config_class": "GptOssConfig", "layer_type": null, "head_dim": 64, "params": {"rope_type": "yarn", "factor": 32.0, "beta_fast": 32.0, "beta_slow": 1.0, "truncate": false, "original_max_position_embeddings": 4096, "rope_theta": 150000.0}, "window": 128},
    {"label": "Apertus (Llama 3.1's rule)", "config_class": "ApertusConfig", "layer_type": null, "head_dim": 128, "params": {"rope_type": "llama3", "rope_theta": 12000000.0, "factor": 8.0, "original_max_position_embeddings": 8192, "low_freq_factor": 1.0, "high_freq_factor": 4.0}, "window": null},
    {"label": "Qwen2-VL, vision (axial)", "config_class": "Qwen2VLVisionConfig", "layer_type": null, "head_dim": 80, "params": {"rope_theta": 10000.0, "rope_type": "axial"}, "window": null},
    {"label": "Phi-3 (LongRoPE)", "config_class": "longrope", "layer_type": null, "head_dim": 96, "params": {"type": "longrope", "long_factor": [1.0299999713897705, 1.0499999523162842, 1.0499999523162842, 1.0799999237060547, 1.2299998998641968, 1.2299998998641968, 1.2999999523162842, 1.4499999284744263, 1.5999999046325684, 1.6499998569488525, 1.8999998569488525, 2.859999895095825, 3.68999981880188, 5.419999599456787, 5.489999771118164, 5.489999771118164, 9.09000015258789, 11.579999923706055, 15.65999984741211, 15.769999504089355, 15.789999961853027, 18.360000610351562, 21.989999771118164, 23.079999923706055, 30.009998321533203, 32.35000228881836, 32.590003967285156, 35.56000518798828, 39.95000457763672, 53.840003967285156, 56.20000457763672, 57.95000457763672, 59.29000473022461, 59.77000427246094, 59.920005798339844, 61.190006256103516, 61.96000671386719, 62.50000762939453, 63.3700065612793, 63.48000717163086, 63.48000717163086, 63.66000747680664, 63.850006103515625, 64.08000946044922, 64.760009765625, 64.80001068115234, 64.81001281738281, 64.81001281738281], "short_factor": [1.05, 1.05, 1.05, 1.1, 1.1, 1.1, 1.2500000000000002, 1.2500000000000002, 1.4000000000000004, 1.4500000000000004, 1.5500000000000005, 1.8500000000000008, 1.9000000000000008, 2.000000000000001, 2.000000000000001, 2.000000000000001, 2.000000000000001, 2.000000000000001, 2.000000000000001, 2.000000000000001, 2.000000000000001, 2.000000000000001, 2.000000000000001, 2.000000000000001, 2.000000000000001, 2.000000000000001, 2.000000000000001, 2.000000000000001, 2.000000000000001, 2.000000000000001, 2.000000000000001, 2.000000000000001, 2.1000000000000005, 2.1000000000000005, 2.2, 2.3499999999999996, 2.3499999999999996, 2.3499999999999996, 2.3499999999999996, 2.3999999999999995, 2.3999999999999995, 2.6499999999999986, 2.6999999999999984, 2.8999999999999977, 2.9499999999999975, 3.049999999999997, 3.049999999999997, 3.049999999999997], "rope_theta": 10000.0, "partial_rotary_factor": 1.0, "rope_type": "longrope", "original_max_position_embeddings": 4096, "max_position_embeddings": 131072}, "window": null},
  ];
  // Chapter 9: posenc.rope_frequencies, one branch per rope_type, step by
  // step as posenc/scaling.py (and Transformers' modeling_rope_utils).
  function ladder(d, base) {
    return range(Math.ceil(d / 2)).map((i) => base ** (-(2 * i) / d));
  }

  function ropeFrequencies(head, p, seqLen) {
    const base = p.rope_theta === undefined ? 10000 : p.rope_theta;
    const type = p.rope_type || p.type;
    const partial = p.partial_rotary_factor === undefined ? 1 : p.partial_rotary_factor;
    if (type === "proportional") {  // Gemma 4: exponent over the whole head, the rest 0
      const turning = Math.floor(partial * head / 2);
      const factor = p.factor || 1;
      return {inv: ladder(head, base).map((t, i) => (i < turning ? t / factor : 0)), a: 1};
    }
    const d = partial === 1 ? head : Math.trunc(head * partial);
    const theta = ladder(d, base);
    if (type === "axial") return {inv: ladder(d / 2, base), a: 1};
    if (type === "yarn") {
      const s = p.factor, L = p.original_max_position_embeddings;
      const pairIndex = (r) => d * Math.log(L / (r * 2 * Math.PI)) / (2 * Math.log(base));
      let low = pairIndex(p.beta_fast || 32), high = pairIndex(p.beta_slow || 1);
      if (p.truncate !== false) { low = Math.floor(low); high = Math.ceil(high); }
      low = Math.max(low, 0); high = Math.min(high, d - 1);
      if (low === high) high += 0.001;
      const inv = theta.map((t, i) => {
        const gamma = 1 - Math.min(Math.max((i - low) / (high - low), 0), 1);
        return t / s * (1 - gamma) + t * gamma;
      });
      const g = (m) => (s <= 1 ? 1 : 0.1 * m * Math.log(s) + 1);
      const a = p.attention_factor !== undefined ? p.attention_factor :
        (p.mscale && p.mscale_all_dim ? g(p.mscale) / g(p.mscale_all_dim) : g(1));
      return {inv, a, edges: [L / (p.beta_fast || 32), L / (p.beta_slow || 1)]};
    }
    if (type === "llama3") {
      const s = p.factor, L = p.original_max_position_embeddings;
      const lo = p.low_freq_factor, hi = p.high_freq_factor;
      const inv = theta.map((t) => {
        const wavelength = TWO_PI / t;
        const scaled = wavelength > L / lo ? t / s : t;
        if (wavelength >= L / hi && wavelength <= L / lo) {
          const smooth = (L / wavelength - lo) / (hi - lo);
          return (1 - smooth) * scaled / s + smooth * scaled;
        }
        return scaled;
      });
      return {inv, a: 1, edges: [L / hi, L / lo]};
    }
    if (type === "longrope") {
      const L = p.original_max_position_embeddings;
      const ext = seqLen > L ? p.long_factor : p.short_factor;
      const s = p.factor || p.max_position_embeddings / L;
      const a = p.attention_factor !== undefined ? p.attention_factor :
        (s <= 1 ? 1 : Math.sqrt(1 + Math.log(s) / Math.log(L)));
      return {inv: theta.map((t, i) => t / ext[i]), a, edges: [L]};
    }
    return {inv: theta, a: 1};
  }
  PW.formulas.ropeFrequenciesOfConfig = ropeFrequencies;

  const EDGE_NAMES = {yarn: ["L/beta_fast", "L/beta_slow"], llama3: ["L/high", "L/low"],
                      longrope: ["L: short/long switch"]};

  PW.register("models", {
    controls: [
      {name: "model", label: "model", values: range(MODELS.length),
       value: 9, text: (i) => MODELS[i].label},
      {name: "length", label: "length l (tokens)",
       values: [512, 2048, 4096, 4097, 8192, 32768, 131072], value: 8192,
       text: (v) => thousands(String(v))},
    ],
    compute({model, length}) {
      const m = MODELS[model];
      const {inv, a, edges} = ropeFrequencies(m.head_dim, m.params, length);
      const pairs = m.head_dim / 2;
      const type = m.params.rope_type || m.params.type;
      const turning = inv.filter((t) => t > 0).length;
      const wavelength = inv.map((t) => (t > 0 ? TWO_PI / t : Infinity));
      const within = wavelength.filter((w) => w <= length).length * (type === "axial" ? 2 : 1);
      // not "params": PosencWidgets.values(figure) holds the controls' settings
      // under that name, and its other keys are these
      return {label: m.label, config_class: m.config_class, layer_type: m.layer_type,
              head_dim: m.head_dim, rope_parameters: m.params, seq_len: length, type, pairs,
              inv_freq: inv, attentionFactor: a, turning, within, wavelength,
              edges: edges || [], window: m.window};
    },
    draw(params, v, W) {
      const left = 62, right = 16, top = 30, height = 230;
      // powers of ten as 10, 100, 1,000, then 1e4, 1e5...: short tick labels
      const tick = (t) => (t >= 1e4 ? `1e${Math.round(Math.log10(t))}` : num(t));
      const finite = v.wavelength.filter(isFinite);
      const hi = Math.max(...finite, v.seq_len, ...v.edges) * 4;
      const panel = new Panel(left, top, W - left - right, height,
                              {domain: [-0.5, v.pairs - 0.5]},
                              {domain: [3, hi], log: 10, format: tick}, W);
      panel.axes({title: `${v.label}: head ${v.head_dim}, ${v.type}`,
                  xlabel: "pair of the head", ylabel: "wavelength (positions)"});
      const series = [];
      const axial = v.type === "axial";
      const idx = range(v.inv_freq.length).filter((i) => v.inv_freq[i] > 0);
      const turn = stroke("blue");
      panel.dots(idx, idx.map((i) => v.wavelength[i]), 2.6, 'class="pw-fill pw-blue"');
      series.push({label: axial ? "turned by the column" : "turns", attrs: turn});
      if (axial) {  // the same ladder again for the rows
        const n = v.inv_freq.length;
        panel.dots(idx.map((i) => i + n), idx.map((i) => v.wavelength[i]), 2.6,
                   'class="pw-fill pw-vermillion"');
        series.push({label: "turned by the row", attrs: stroke("vermillion")});
      }
      const still = range(v.pairs).filter((i) => axial ? false :
        i >= v.inv_freq.length || v.inv_freq[i] === 0);
      if (still.length) {
        panel.dots(still, still.map(() => hi / 2), 2.6, 'class="pw-series pw-grey" stroke-width="1.5"');
        series.push({label: "no rotation (no position)", attrs: stroke("grey")});
      }
      panel.hline(v.seq_len, 'class="pw-series pw-black" stroke-width="1"',
                  `l = ${thousands(String(v.seq_len))}`);
      if (v.window) panel.hline(v.window, 'class="pw-grid-strong"',
                                `window ${thousands(String(v.window))}`);
      (EDGE_NAMES[v.type] || []).forEach((name, k) => {
        if (!v.edges[k]) return;
        panel.hline(v.edges[k], 'class="pw-faint"');  // labelled on the right
        panel.parts.push(`<text class="pw-note" x="${panel.x + panel.w - 6}" ` +
                         `y="${Math.round(panel.Y(v.edges[k])) - 5}" text-anchor="end">` +
                         `${esc(name)}</text>`);
      });
      const key = legend(series, left, top + height + 48, W - left - right);
      const rotated = axial ? v.pairs : v.turning;
      const alt = `Dot plot of the wavelength of each of the ${v.pairs} pairs of a head of ` +
        `width ${v.head_dim} (${v.label}, rope_type ${v.type}), on a log axis: ` +
        `${rotated} pairs turn, with wavelengths from ${fmt(Math.min(...finite))} to ` +
        `${fmt(Math.max(...finite))} positions` +
        (still.length ? `; ${still.length} pairs do not turn at all` : "") +
        `. ${v.within} of the turning wavelengths are at most l = ` +
        `${thousands(String(v.seq_len))} tokens.`;
      const summary = `${v.label}: ${rotated} of ${v.pairs} pairs turn` +
        (axial ? " (half by the column, half by the row)" : "") +
        `; ${v.within} complete a turn within ${thousands(String(v.seq_len))} tokens; ` +
        `attention factor ${fmt(v.attentionFactor, 4)}.`;
      return {svg: svgDoc(W, top + height + 48 + key.height + 4, panel.svg() + key.svg),
              alt, summary};
    },
  });
})(globalThis.PosencWidgets);
