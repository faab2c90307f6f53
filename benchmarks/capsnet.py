"""CapsNet training step: capsule_ae's CapsNet against a plain port in the style people copy, side by side in one run.

The plain port ("naive") computes the same network: it repeats W over the batch and calls matmul for the
predictions, and routes with a Python loop over a [B, 1152, 10, 1] logit tensor with explicit norms (softmax over
the parents, i.e. the bug fixed, so both do the same work). All variants are timed on the same batch at batch size 128,
round-robin (one step of each in turn, `--repeats` rounds, the median reported): forward, backward and an Adam
step. capsule_ae runs in float32 and with its convolutions in bfloat16 (`CapsNet(precision='bf16')`), each eager and
under torch.compile. We report ms per step, the ratio naive / variant, the achieved GFLOP/s against an analytic
count of the arithmetic (`capsnet_flops`), and that rate as a fraction of this machine's measured matrix-product
rate in float32 and in bfloat16 (`gemm_rate`).

    python benchmarks/capsnet.py [--batch 128] [--repeats 4] [--device cpu|cuda] [--no-compile] [--json out.json]
"""
import argparse, json, platform, statistics, time
import torch
from torch import nn
import torch.nn.functional as F
from capsule_ae.models.capsnet import CapsNet, capsnet_loss


def capsnet_flops(batch, iterations=3):
    """Multiply-adds x 2 of one training step of the paper's MNIST CapsNet: forward as counted, backward ~2x forward.

    Per image, forward: conv1 2*20*20*256*81 = 16.6M; PrimaryCaps 2*6*6*256*256*81 = 382.2M; predictions
    u_hat 2*1152*10*16*8 = 2.9M; routing (weighted sums each iteration, agreements in all but the last)
    2*1152*10*16*(2r-1) = 1.8M for r = 3; decoder 2*(160*512 + 512*1024 + 1024*784) = 2.8M. Total 406M forward,
    1.22 GFLOP per image for forward + backward (elementwise work not counted).
    """
    conv1 = 2 * 20 * 20 * 256 * 81
    primary = 2 * 6 * 6 * 256 * 256 * 81
    u_hat = 2 * 1152 * 10 * 16 * 8
    routing = 2 * 1152 * 10 * 16 * (2 * iterations - 1)
    decoder = 2 * (160 * 512 + 512 * 1024 + 1024 * 784)
    return 3 * batch * (conv1 + primary + u_hat + routing + decoder)


class NaiveCapsNet(nn.Module):
    "The same network written the way common ports write it (repeat + matmul, explicit norms, loop routing)."
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 256, 9)
        self.primary = nn.Conv2d(256, 256, 9, stride=2)
        self.W = nn.Parameter(0.01 * torch.randn(1, 1152, 10, 16, 8))
        self.decoder = nn.Sequential(nn.Linear(160, 512), nn.ReLU(), nn.Linear(512, 1024), nn.ReLU(),
                                     nn.Linear(1024, 784), nn.Sigmoid())

    @staticmethod
    def squash(s, dim=-1):
        n2 = (s ** 2).sum(dim, keepdim=True)
        return n2 / (1 + n2) * s / torch.sqrt(n2 + 1e-8)

    def forward(self, x, y):
        B = x.shape[0]
        a = F.relu(self.conv1(x))
        p = self.primary(a).view(B, 32, 8, 6, 6).permute(0, 1, 3, 4, 2).reshape(B, 1152, 8)
        u = self.squash(p)
        W = self.W.repeat(B, 1, 1, 1, 1)                                  # (B, 1152, 10, 16, 8)
        u_hat = torch.matmul(W, u[:, :, None, :, None].repeat(1, 1, 10, 1, 1)).squeeze(-1)   # (B, 1152, 10, 16)
        b = torch.zeros(B, 1152, 10, 1, device=x.device)
        for r in range(3):
            c = F.softmax(b, dim=2)
            s = (c * u_hat).sum(dim=1, keepdim=True)                      # (B, 1, 10, 16)
            v = self.squash(s)
            if r < 2: b = b + (u_hat * v).sum(-1, keepdim=True)
        v = v.squeeze(1)                                                  # (B, 10, 16)
        lengths = torch.sqrt((v ** 2).sum(-1) + 1e-8)
        mask = torch.eye(10, device=x.device)[y]
        recon = self.decoder((v * mask[:, :, None]).view(B, -1))
        return lengths, recon


def naive_loss(out, x, y):
    lengths, recon = out
    T = torch.eye(10, device=x.device)[y]
    margin = (T * F.relu(0.9 - lengths) ** 2 + 0.5 * (1 - T) * F.relu(lengths - 0.1) ** 2).sum(1).mean()
    return margin + 0.0005 * ((recon - x.view(x.shape[0], -1)) ** 2).sum(1).mean()


def step_fn(model, naive):
    opt = torch.optim.Adam(model.parameters(), 1e-3)
    def step(x, y):
        loss = naive_loss(model(x, y), x, y) if naive else capsnet_loss(model(x, y), x, y)['loss']
        opt.zero_grad(set_to_none=True); loss.backward(); opt.step()
        return loss
    return step


def gemm_rate(dtype, n=2048, repeats=5, device='cpu'):
    """This machine's measured matrix-product rate in GFLOP/s for `dtype` (n x n times n x n, median of `repeats`): the
    peak a step can approach."""
    a, b = torch.randn(n, n, device=device).to(dtype), torch.randn(n, n, device=device).to(dtype)
    sync = torch.cuda.synchronize if a.is_cuda else (lambda: None)
    for _ in range(2): a @ b
    sync(); times = []
    for _ in range(repeats):
        t0 = time.perf_counter(); a @ b; sync(); times.append(time.perf_counter() - t0)
    return 2 * n ** 3 / sorted(times)[len(times) // 2] / 1e9


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('--batch', type=int, default=128)
    ap.add_argument('--repeats', type=int, default=4, help='rounds; each times one step of every variant in turn')
    ap.add_argument('--device', default='cuda' if torch.cuda.is_available() else 'cpu')
    ap.add_argument('--no-compile', action='store_true', help='skip the torch.compile variants')
    ap.add_argument('--json', default=None)
    args = ap.parse_args()
    dev = torch.device(args.device)
    torch.manual_seed(0)
    x = torch.rand(args.batch, 1, 28, 28, device=dev); y = torch.randint(0, 10, (args.batch,), device=dev)
    flops = capsnet_flops(args.batch)

    # the two models compute the same function: check once on shared weights
    ours, naive = CapsNet().to(dev), NaiveCapsNet().to(dev)
    with torch.no_grad():
        naive.conv1.load_state_dict(ours.conv1.state_dict())
        naive.primary.load_state_dict(ours.primary.conv.state_dict())
        naive.W.copy_(ours.digits.W[None]); naive.decoder.load_state_dict(ours.decoder.state_dict())
        (l_n, r_n), o = naive(x[:16], y[:16]), ours(x[:16], y[:16])
        diff = max((l_n - o.lengths).abs().max().item() / o.lengths.abs().max().item(),
                   (r_n - o.reconstructions).abs().max().item())          # relative on lengths, absolute on pixels

    models = {'naive (repeat + matmul, loop routing)': (naive, True),
              'capsule_ae fp32': (ours, False),
              'capsule_ae bf16': (CapsNet(precision='bf16').to(dev), False)}
    if not args.no_compile:
        models['capsule_ae fp32, compiled'] = (torch.compile(CapsNet().to(dev)), False)
        models['capsule_ae bf16, compiled'] = (torch.compile(CapsNet(precision='bf16').to(dev)), False)
    sync = torch.cuda.synchronize if dev.type == 'cuda' else (lambda: None)
    steps, times = {}, {}
    for name, (model, is_naive) in models.items():                      # warm-up and compilation, before any timing
        t0 = time.perf_counter(); steps[name] = step_fn(model, is_naive)
        for _ in range(2): steps[name](x, y)
        sync(); times[name] = []
        print(f"  warmed up {name} in {time.perf_counter() - t0:.0f} s", flush=True)
    for _ in range(args.repeats):                                  # round-robin: machine noise hits every variant alike
        for name, step in steps.items():
            t0 = time.perf_counter(); step(x, y); sync(); times[name].append(time.perf_counter() - t0)
    peak = {'fp32': gemm_rate(torch.float32, device=dev), 'bf16': gemm_rate(torch.bfloat16, device=dev)}
    results = {}
    base = statistics.median(times['naive (repeat + matmul, loop routing)'])
    for name, t in times.items():
        sec = statistics.median(t)
        results[name] = {'ms_per_step': 1000 * sec, 'gflops_per_s': flops / sec / 1e9, 'speedup_vs_naive': base / sec,
                         'fraction_of_fp32_gemm': flops / sec / 1e9 / peak['fp32'],
                         'fraction_of_bf16_gemm': flops / sec / 1e9 / peak['bf16']}
    print(f"CapsNet training step, batch {args.batch}, {dev} ({torch.get_num_threads()} threads), torch {torch.__version__}")
    print(f"analytic work: {flops / 1e9:.1f} GFLOP per step ({flops / args.batch / 1e9:.3f} per image); "
          f"naive vs capsule_ae outputs differ by {diff:.1e}")
    print(f"measured 2048 x 2048 matrix products: {peak['fp32']:.0f} GFLOP/s in float32, {peak['bf16']:.0f} in bfloat16")
    for name, r in results.items():
        print(f"  {name:40s} {r['ms_per_step']:8.1f} ms/step  {r['gflops_per_s']:7.1f} GFLOP/s  {r['speedup_vs_naive']:.2f}x  "
              f"{r['fraction_of_fp32_gemm']:.0%} of fp32 GEMM, {r['fraction_of_bf16_gemm']:.0%} of bf16 GEMM")
    if args.json:
        info = {'batch': args.batch, 'device': str(dev), 'threads': torch.get_num_threads(), 'torch': torch.__version__,
                'processor': platform.processor() or platform.machine(), 'gflop_per_step': flops / 1e9,
                'gpu': torch.cuda.get_device_name(dev) if dev.type == 'cuda' else None, 'repeats': args.repeats,
                'gemm_gflops_per_s': peak, 'output_difference': diff, 'results': results}
        with open(args.json, 'w') as f: json.dump(info, f, indent=2)


if __name__ == '__main__':
    main()
