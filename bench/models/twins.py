"""PyTorch twins of the example models (examples/models/generate.py).

Each twin computes what its MLIR model computes, with the same shapes, the
same op order and the same constant weights as the full-size examples
(splats), so eager, torch.compile and a CUDA graph do the same work as the
model before and after stark. `MODELS[name]` gives
(build(torch, device) -> (module, inputs)); `ZOO` describes the zoo's
models without torch (this file imports without it: torch is an argument).
"""

import functools
import math


def _fill(torch, module, value_of):
    with torch.no_grad():
        for name, p in module.named_parameters():
            p.fill_(value_of(name, p))
        for name, b in module.named_buffers():
            if b.dtype.is_floating_point:
                b.fill_(value_of(name, b))


def transformer_layer(torch, device, seq=128, hidden=768, heads=12, ffn=3072):
    nn = torch.nn

    class Layer(nn.Module):
        def __init__(self):
            super().__init__()
            self.q = nn.Linear(hidden, hidden)
            self.k = nn.Linear(hidden, hidden)
            self.v = nn.Linear(hidden, hidden)
            self.out = nn.Linear(hidden, hidden)
            self.norm1 = nn.LayerNorm(hidden)
            self.up = nn.Linear(hidden, ffn)
            self.down = nn.Linear(ffn, hidden)
            self.norm2 = nn.LayerNorm(hidden)

        def forward(self, x):
            hd = hidden // heads
            q = self.q(x).view(seq, heads, hd).transpose(0, 1)
            k = self.k(x).view(seq, heads, hd).permute(1, 2, 0)
            v = self.v(x).view(seq, heads, hd).transpose(0, 1)
            p = torch.softmax(torch.bmm(q, k) / math.sqrt(hd), dim=-1)
            ctx = torch.bmm(p, v).transpose(0, 1).reshape(seq, hidden)
            n1 = self.norm1(self.out(ctx) + x)
            h = torch.nn.functional.gelu(self.up(n1))  # erf GELU
            return self.norm2(self.down(h) + n1)

    m = Layer().to(device)

    def value(name, p):
        if "norm" in name:
            return 1.0 if name.endswith("weight") else 0.0
        if name.endswith("bias"):
            return 0.01
        return 1.0 / p.shape[1]
    _fill(torch, m, value)
    x = torch.rand(seq, hidden, device=device)
    return m.eval(), (x,)


def resnet_block(torch, device, channels=64, size=56):
    nn = torch.nn

    class Block(nn.Module):
        def __init__(self):
            super().__init__()
            self.conv1 = nn.Conv2d(channels, channels, 3, padding=1, bias=False)
            self.bn1 = nn.BatchNorm2d(channels)
            self.conv2 = nn.Conv2d(channels, channels, 3, padding=1, bias=False)
            self.bn2 = nn.BatchNorm2d(channels)

        def forward(self, x):
            y = torch.relu(self.bn1(self.conv1(x)))
            return torch.relu(self.bn2(self.conv2(y)) + x)

    m = Block().to(device)

    def value(name, p):
        if name.startswith("conv"):
            return 1.0 / (9 * channels)
        if name.endswith(("running_var", "weight")):
            return 1.0
        return 0.0
    _fill(torch, m, value)
    x = torch.rand(1, channels, size, size, device=device)
    return m.eval(), (x,)


def mlp_model(torch, device, batch=64, sizes=(512, 1024, 1024, 10)):
    nn = torch.nn
    layers = []
    for i, (a, b) in enumerate(zip(sizes, sizes[1:])):
        layers.append(nn.Linear(a, b))
        if i + 2 < len(sizes):
            layers.append(nn.ReLU())
    m = nn.Sequential(*layers).to(device)
    _fill(torch, m, lambda name, p: 0.01 if name.endswith("bias")
          else 1.0 / p.shape[1])
    x = torch.rand(batch, sizes[0], device=device)
    return m.eval(), (x,)



def _fill_like_generator(torch, module, special=None):
    """The splats generate.py writes at full size: a conv or linear weight
    1 / fan_in, its bias 0.01, batch / layer / RMS norms the identity
    (mean 0, variance 1, weight 1, bias 0); `special` maps a parameter name
    to its value where a model has its own."""
    nn = torch.nn
    special = special or {}
    with torch.no_grad():
        for mname, mod in module.named_modules():
            for pname, p in list(mod.named_parameters(recurse=False)) + \
                    [(n, b) for n, b in mod.named_buffers(recurse=False)
                     if b.dtype.is_floating_point]:
                full = f"{mname}.{pname}" if mname else pname
                if full in special:
                    value = special[full]
                elif isinstance(mod, (nn.Conv2d, nn.Linear)):
                    fan_in = p.shape[1] if pname == "weight" else None
                    if isinstance(mod, nn.Conv2d) and fan_in:
                        fan_in *= mod.kernel_size[0] * mod.kernel_size[1]
                    value = 1.0 / fan_in if fan_in else 0.01
                elif pname in ("running_var", "weight"):
                    value = 1.0
                else:
                    value = 0.0
                p.fill_(value)


VGG16 = (64, 64, "M", 128, 128, "M", 256, 256, 256, "M", 512, 512, 512, "M",
         512, 512, 512, "M")


def vgg16(torch, device, batch=1, size=224, classes=1000, cfg=VGG16, pool=7,
          hidden=4096):
    """torchvision's vgg16 (no batch norm), eval mode; `cfg`, `pool` and
    `hidden` as generate.py's vgg() takes them."""
    nn = torch.nn
    layers, cin = [], 3
    for v in cfg:
        if v == "M":
            layers.append(nn.MaxPool2d(2, 2))
        else:
            layers += [nn.Conv2d(cin, v, 3, padding=1), nn.ReLU()]
            cin = v

    class VGG(nn.Module):
        def __init__(self):
            super().__init__()
            self.features = nn.Sequential(*layers)
            self.avgpool = nn.AdaptiveAvgPool2d(pool)
            self.classifier = nn.Sequential(
                nn.Linear(cin * pool * pool, hidden), nn.ReLU(), nn.Dropout(),
                nn.Linear(hidden, hidden), nn.ReLU(), nn.Dropout(),
                nn.Linear(hidden, classes))

        def forward(self, x):
            x = self.avgpool(self.features(x))
            return self.classifier(torch.flatten(x, 1))

    m = VGG().to(device)
    _fill_like_generator(torch, m)
    x = torch.rand(batch, 3, size, size, device=device)
    return m.eval(), (x,)


def resnet18(torch, device, batch=1, size=224, classes=1000,
             widths=(64, 128, 256, 512), blocks=2):
    """torchvision's resnet18, eval mode; `widths` and `blocks` as
    generate.py's resnet() takes them."""
    nn = torch.nn

    class Block(nn.Module):
        def __init__(self, cin, cout, stride):
            super().__init__()
            self.conv1 = nn.Conv2d(cin, cout, 3, stride, 1, bias=False)
            self.bn1 = nn.BatchNorm2d(cout)
            self.conv2 = nn.Conv2d(cout, cout, 3, 1, 1, bias=False)
            self.bn2 = nn.BatchNorm2d(cout)
            self.downsample = None
            if stride != 1 or cin != cout:
                self.downsample = nn.Sequential(
                    nn.Conv2d(cin, cout, 1, stride, bias=False),
                    nn.BatchNorm2d(cout))

        def forward(self, x):
            y = torch.relu(self.bn1(self.conv1(x)))
            y = self.bn2(self.conv2(y))
            idn = x if self.downsample is None else self.downsample(x)
            return torch.relu(y + idn)

    class ResNet(nn.Module):
        def __init__(self):
            super().__init__()
            self.conv1 = nn.Conv2d(3, widths[0], 7, 2, 3, bias=False)
            self.bn1 = nn.BatchNorm2d(widths[0])
            self.maxpool = nn.MaxPool2d(3, 2, 1)
            cin, stages = widths[0], []
            for s, w in enumerate(widths):
                stages.append(nn.Sequential(*[
                    Block(cin if b == 0 else w, w, 2 if s and b == 0 else 1)
                    for b in range(blocks)]))
                cin = w
            self.layers = nn.Sequential(*stages)
            self.avgpool = nn.AdaptiveAvgPool2d(1)
            self.fc = nn.Linear(widths[-1], classes)

        def forward(self, x):
            x = self.maxpool(torch.relu(self.bn1(self.conv1(x))))
            x = self.layers(x)
            return self.fc(torch.flatten(self.avgpool(x), 1))

    m = ResNet().to(device)
    _fill_like_generator(torch, m)
    x = torch.rand(batch, 3, size, size, device=device)
    return m.eval(), (x,)


# generate.py's MBV3_SMALL: kernel, expanded, out, squeeze-excite,
# activation, stride
MBV3_SMALL = [(3, 16, 16, True, "relu", 2), (3, 72, 24, False, "relu", 2),
              (3, 88, 24, False, "relu", 1), (5, 96, 40, True, "hardswish", 2),
              (5, 240, 40, True, "hardswish", 1),
              (5, 240, 40, True, "hardswish", 1),
              (5, 120, 48, True, "hardswish", 1),
              (5, 144, 48, True, "hardswish", 1),
              (5, 288, 96, True, "hardswish", 2),
              (5, 576, 96, True, "hardswish", 1),
              (5, 576, 96, True, "hardswish", 1)]


def _make_divisible(v, d=8):
    new = max(d, int(v + d / 2) // d * d)
    return new + d if new < 0.9 * v else new


def mobilenet_v3_small(torch, device, batch=1, size=224, classes=1000,
                       cfg=MBV3_SMALL, stem=16, last=576, hidden=1024):
    """torchvision's mobilenet_v3_small, eval mode; `cfg`, `stem`, `last`
    and `hidden` as generate.py's mobilenet_v3() takes them."""
    nn = torch.nn
    acts = {"relu": nn.ReLU, "hardswish": nn.Hardswish}

    def cba(cin, cout, k, stride, act, groups=1):
        layers = [nn.Conv2d(cin, cout, k, stride, (k - 1) // 2, groups=groups,
                            bias=False), nn.BatchNorm2d(cout)]
        return nn.Sequential(*(layers + ([acts[act]()] if act else [])))

    class SE(nn.Module):
        def __init__(self, c):
            super().__init__()
            sq = _make_divisible(c // 4)
            self.avgpool = nn.AdaptiveAvgPool2d(1)
            self.fc1 = nn.Conv2d(c, sq, 1)
            self.fc2 = nn.Conv2d(sq, c, 1)

        def forward(self, x):
            s = torch.relu(self.fc1(self.avgpool(x)))
            return x * torch.nn.functional.hardsigmoid(self.fc2(s))

    class Inverted(nn.Module):
        def __init__(self, cin, k, exp, out, se, act, stride):
            super().__init__()
            layers = []
            if exp != cin:
                layers.append(cba(cin, exp, 1, 1, act))
            layers.append(cba(exp, exp, k, stride, act, groups=exp))
            if se:
                layers.append(SE(exp))
            layers.append(cba(exp, out, 1, 1, None))
            self.block = nn.Sequential(*layers)
            self.residual = stride == 1 and cin == out

        def forward(self, x):
            y = self.block(x)
            return y + x if self.residual else y

    class MobileNetV3(nn.Module):
        def __init__(self):
            super().__init__()
            feats, cin = [cba(3, stem, 3, 2, "hardswish")], stem
            for k, exp, out, se, act, stride in cfg:
                feats.append(Inverted(cin, k, exp, out, se, act, stride))
                cin = out
            feats.append(cba(cin, last, 1, 1, "hardswish"))
            self.features = nn.Sequential(*feats)
            self.avgpool = nn.AdaptiveAvgPool2d(1)
            self.classifier = nn.Sequential(
                nn.Linear(last, hidden), nn.Hardswish(), nn.Dropout(),
                nn.Linear(hidden, classes))

        def forward(self, x):
            x = self.avgpool(self.features(x))
            return self.classifier(torch.flatten(x, 1))

    m = MobileNetV3().to(device)
    _fill_like_generator(torch, m)
    x = torch.rand(batch, 3, size, size, device=device)
    return m.eval(), (x,)


def bert_base(torch, device, batch=1, seq=128, layers=12, hidden=768,
              heads=12, ffn=3072, vocab=30522, positions=512):
    """A BERT encoder stack (Hugging Face's BertModel without the pooler and
    the attention mask), eval mode; token ids clamped into the vocabulary,
    as the MLIR model does."""
    nn = torch.nn
    F = torch.nn.functional
    hd = hidden // heads

    class Layer(nn.Module):
        def __init__(self):
            super().__init__()
            self.query = nn.Linear(hidden, hidden)
            self.key = nn.Linear(hidden, hidden)
            self.value = nn.Linear(hidden, hidden)
            self.dense = nn.Linear(hidden, hidden)
            self.norm1 = nn.LayerNorm(hidden, eps=1e-12)
            self.intermediate = nn.Linear(hidden, ffn)
            self.output = nn.Linear(ffn, hidden)
            self.norm2 = nn.LayerNorm(hidden, eps=1e-12)

        def forward(self, x):  # x: (batch * seq, hidden)
            def split(t, perm):
                return t.view(batch, seq, heads, hd).permute(*perm).reshape(
                    batch * heads, *([seq, hd] if perm[2] == 1 else [hd, seq]))
            q = split(self.query(x), (0, 2, 1, 3))
            k = split(self.key(x), (0, 2, 3, 1))
            v = split(self.value(x), (0, 2, 1, 3))
            p = torch.softmax(torch.bmm(q, k) * (1 / math.sqrt(hd)), dim=-1)
            ctx = torch.bmm(p, v).view(batch, heads, seq, hd).transpose(
                1, 2).reshape(batch * seq, hidden)
            x = self.norm1(self.dense(ctx) + x)
            h = F.gelu(self.intermediate(x))  # erf GELU
            return self.norm2(self.output(h) + x)

    class Bert(nn.Module):
        def __init__(self):
            super().__init__()
            self.word = nn.Embedding(vocab, hidden)
            self.position = nn.Embedding(positions, hidden)
            self.token_type = nn.Embedding(2, hidden)
            self.norm = nn.LayerNorm(hidden, eps=1e-12)
            self.layers = nn.ModuleList(Layer() for _ in range(layers))
            self.register_buffer("positions", torch.arange(seq))
            self.register_buffer("types", torch.zeros(seq, dtype=torch.long))

        def forward(self, ids):
            e = self.word(ids.clamp(0, vocab - 1)) + self.position(
                self.positions) + self.token_type(self.types)
            x = self.norm(e.reshape(batch * seq, hidden))
            for layer in self.layers:
                x = layer(x)
            return x.view(batch, seq, hidden)

    m = Bert().to(device)
    _fill_like_generator(torch, m, {"word.weight": 0.02,
                                    "position.weight": 0.01,
                                    "token_type.weight": 0.0})
    ids = torch.randint(0, vocab, (batch, seq), device=device)
    return m.eval(), (ids,)


def llama_block(torch, device, batch=1, seq=512, hidden=2048, heads=16,
                ffn=5632, dtype="f32", sdpa=False):
    """A LLaMA decoder block (Hugging Face's LlamaDecoderLayer without
    grouped-query attention), eval mode; the rotary tables are the model's
    splats (cos 1, sin 0), the work is the same. dtype "bf16": the module
    and its input cast to bfloat16, as generate.py's llama_block_bf16.
    sdpa: the attention is torch's fused scaled_dot_product_attention
    (is_causal; flash, cuDNN or efficient kernels as torch picks) instead of
    the matmul / softmax chain the exported file holds."""
    nn = torch.nn
    F = torch.nn.functional
    hd = hidden // heads

    class RMSNorm(nn.Module):
        def __init__(self):
            super().__init__()
            self.weight = nn.Parameter(torch.ones(hidden))

        def forward(self, x):
            return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + 1e-6) * \
                self.weight

    class Block(nn.Module):
        def __init__(self):
            super().__init__()
            self.input_layernorm = RMSNorm()
            self.q_proj = nn.Linear(hidden, hidden, bias=False)
            self.k_proj = nn.Linear(hidden, hidden, bias=False)
            self.v_proj = nn.Linear(hidden, hidden, bias=False)
            self.o_proj = nn.Linear(hidden, hidden, bias=False)
            self.post_attention_layernorm = RMSNorm()
            self.gate_proj = nn.Linear(hidden, ffn, bias=False)
            self.up_proj = nn.Linear(hidden, ffn, bias=False)
            self.down_proj = nn.Linear(ffn, hidden, bias=False)
            self.register_buffer("cos", torch.ones(seq, hd))
            self.register_buffer("sin", torch.zeros(seq, hd))

        def rope(self, t):
            t = t.view(batch, seq, heads, hd).transpose(1, 2)
            rot = torch.cat((-t[..., hd // 2:], t[..., :hd // 2]), dim=-1)
            return t * self.cos + rot * self.sin

        def forward(self, x):
            x = x.reshape(batch * seq, hidden)
            n = self.input_layernorm(x)
            q = self.rope(self.q_proj(n)).reshape(batch * heads, seq, hd)
            k = self.rope(self.k_proj(n)).reshape(batch * heads, seq, hd)
            v = self.v_proj(n).view(batch, seq, heads, hd).transpose(
                1, 2).reshape(batch * heads, seq, hd)
            if sdpa:
                o = F.scaled_dot_product_attention(
                    q.view(batch, heads, seq, hd), k.view(batch, heads, seq, hd),
                    v.view(batch, heads, seq, hd), is_causal=True)
            else:
                s = torch.bmm(q, k.transpose(1, 2)) * (1 / math.sqrt(hd))
                mask = torch.full((seq, seq), float("-inf"), device=x.device,
                                  dtype=x.dtype).triu(1)
                o = torch.bmm(torch.softmax(s + mask, dim=-1), v)
            ctx = o.reshape(batch, heads, seq, hd).transpose(
                1, 2).reshape(batch * seq, hidden)
            h = x + self.o_proj(ctx)
            n2 = self.post_attention_layernorm(h)
            y = self.down_proj(F.silu(self.gate_proj(n2)) * self.up_proj(n2))
            return (h + y).view(batch, seq, hidden)

    m = Block().to(device)
    _fill_like_generator(torch, m, {"cos": 1.0, "sin": 0.0})
    x = torch.rand(batch, seq, hidden, device=device)
    if dtype == "bf16":
        m, x = m.to(torch.bfloat16), x.to(torch.bfloat16)
    return m.eval(), (x,)


# The zoo: generate.py's full-size files, each with its twin and the
# arguments that give it the file's shapes.
ZOO = [
    ("vgg16_b1", vgg16, {"batch": 1}),
    ("vgg16_b8", vgg16, {"batch": 8}),
    ("resnet18_b1", resnet18, {"batch": 1}),
    ("resnet18_b8", resnet18, {"batch": 8}),
    ("mobilenet_v3_small_b1", mobilenet_v3_small, {"batch": 1}),
    ("mobilenet_v3_small_b8", mobilenet_v3_small, {"batch": 8}),
    ("bert_base_b1", bert_base, {"batch": 1}),
    ("bert_base_b8", bert_base, {"batch": 8}),
    ("llama_block_b1", llama_block, {"batch": 1, "seq": 512}),
    ("llama_block_b8", llama_block, {"batch": 8, "seq": 256}),
    ("llama_block_bf16_b1", llama_block,
     {"batch": 1, "seq": 512, "dtype": "bf16"}),
    ("llama_block_bf16_b8", llama_block,
     {"batch": 8, "seq": 256, "dtype": "bf16"}),
]

# Models whose twin has a variant on torch's fused attention: the SDPA peers
# (eager and a CUDA graph of it).
SDPA = {name: functools.partial(build, sdpa=True, **kw)
        for name, build, kw in ZOO if build is llama_block}

MODELS = {
    "transformer_layer": transformer_layer,
    "resnet_block": resnet_block,
    "mlp_model": mlp_model,
}
MODELS.update({name: functools.partial(build, **kw) for name, build, kw in ZOO})
