"""PyTorch twins of the example models (examples/models/generate.py).

Each twin computes what its MLIR model computes, with the same shapes and
the same constant weights as the full-size examples (splats), so eager and
torch.compile do the same work as the model before and after stark.
`MODELS[name]` gives (build(torch, device) -> (module, inputs)).
"""

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


MODELS = {
    "transformer_layer": transformer_layer,
    "resnet_block": resnet_block,
    "mlp_model": mlp_model,
}
