"""Amortized clustering: our `MoGClusterer` against the official Set Transformer model, side by side in one run.

The official model (juho-lee/set_transformer, `models.py` and `modules.py`) is written out below from its
description, as plainly as possible: multihead attention with the heads stacked along the batch axis, the softmax
scaled by the full width sqrt(dim_V), the projected query added back, O + relu(fc_o(O)) as the feed-forward, no
LayerNorm; encoder ISAB, ISAB; decoder PMA(4), SAB, SAB, Linear; per component one mixing weight (softmax), a
2-D mean and one softplus scale, scored by log(pi + 1e-10) + log N.

1. Equivalence: the official model with our model's weights copied in gives the same outputs (largest difference).
2. Learning: both models are built after seeding torch with the run's seed; they create their parameters in the
   same order, so they start from the same weights, and any difference in learning comes from the code. They
   train on the *same* batches (one seeded stream of the official protocol: 10 sets of 300-599 points per step,
   Adam 1e-3 cut tenfold at half of --steps), one step of each in turn, and are scored every --eval-every steps on
   the same held-out batches (official-protocol sizes). Their steps are timed in the same loop, so the time ratio
   is fair even on a noisy machine.

    python benchmarks/clustering.py [--steps 3000] [--seeds 0 1] [--num-inds 16] [--eval-every 500] [--json FILE]
"""
import argparse, json, math, statistics, time
import torch
import torch.nn as nn
import torch.nn.functional as F
from capsule_ae.experiments.clustering import (CLUSTERING_PROTOCOLS, MoGClusterer, MoGSets, clustering_loss,
                                               held_out_sets, mog_log_prob)
from capsule_ae.experiments.metrics import adjusted_rand_index
from capsule_ae.nn.gmm import GaussianMixture


class OfficialMAB(nn.Module):
    def __init__(self, dim_Q, dim_K, dim_V, num_heads):
        super().__init__()
        self.dim_V, self.num_heads = dim_V, num_heads
        self.fc_q, self.fc_k, self.fc_v = nn.Linear(dim_Q, dim_V), nn.Linear(dim_K, dim_V), nn.Linear(dim_K, dim_V)
        self.fc_o = nn.Linear(dim_V, dim_V)

    def forward(self, Q, K):
        Q, V, K = self.fc_q(Q), self.fc_v(K), self.fc_k(K)                 # (B, Nq, dV), (B, Nk, dV) x2
        B, d = Q.shape[0], self.dim_V // self.num_heads
        stack = lambda T: torch.cat(T.split(d, 2), 0)                      # (h B, N, d): heads along the batch
        Q_, K_, V_ = stack(Q), stack(K), stack(V)
        A = torch.softmax(Q_ @ K_.transpose(1, 2) / math.sqrt(self.dim_V), 2)  # (h B, Nq, Nk)
        O = torch.cat((Q_ + A @ V_).split(B, 0), 2)                        # (B, Nq, dV)
        return O + F.relu(self.fc_o(O))


class OfficialISAB(nn.Module):
    def __init__(self, dim_in, dim_out, num_heads, num_inds):
        super().__init__()
        self.I = nn.Parameter(torch.empty(1, num_inds, dim_out)); nn.init.xavier_uniform_(self.I)
        self.mab0, self.mab1 = OfficialMAB(dim_out, dim_in, dim_out, num_heads), OfficialMAB(dim_in, dim_out, dim_out,
                                                                                             num_heads)

    def forward(self, X):
        return self.mab1(X, self.mab0(self.I.repeat(X.shape[0], 1, 1), X))


class OfficialSAB(nn.Module):
    def __init__(self, dim_in, dim_out, num_heads):
        super().__init__()
        self.mab = OfficialMAB(dim_in, dim_in, dim_out, num_heads)

    def forward(self, X): return self.mab(X, X)


class OfficialPMA(nn.Module):
    def __init__(self, dim, num_heads, num_seeds):
        super().__init__()
        self.S = nn.Parameter(torch.empty(1, num_seeds, dim)); nn.init.xavier_uniform_(self.S)
        self.mab = OfficialMAB(dim, dim, dim, num_heads)

    def forward(self, X): return self.mab(self.S.repeat(X.shape[0], 1, 1), X)


class OfficialClusterer(nn.Module):
    "The official amortized-clustering model: raw outputs (B, K, 4), parsed by `parse`."
    def __init__(self, K=4, dim=2, num_inds=32, dim_hidden=128, num_heads=4):
        super().__init__()
        self.enc = nn.Sequential(OfficialISAB(dim, dim_hidden, num_heads, num_inds),
                                 OfficialISAB(dim_hidden, dim_hidden, num_heads, num_inds))
        self.dec = nn.Sequential(OfficialPMA(dim_hidden, num_heads, K), OfficialSAB(dim_hidden, dim_hidden, num_heads),
                                 OfficialSAB(dim_hidden, dim_hidden, num_heads), nn.Linear(dim_hidden, 2 * dim))

    def forward(self, X):
        raw = self.dec(self.enc(X))                                          # (B, K, 1 + D + 1)
        pi = torch.softmax(raw[..., 0], -1)                                  # (B, K)
        return (pi + 1e-10).log(), raw[..., 1:3], F.softplus(raw[..., 3])    # log-weights, means, scales


def copy_ours_into_official(ours, official):
    "Load our MoGClusterer's weights into the official model (same tensors, other names)."
    net, mapping = ours.net, {}
    for i in range(2):
        for j in range(2): mapping[f'enc.{i}.mab{j}'] = net.enc[i].__getattr__(f'mab{j}')
        mapping[f'enc.{i}.I'] = net.enc[i].I
    mapping['dec.0.mab'], mapping['dec.0.S'] = net.pma.mab, net.pma.S
    for i in range(2): mapping[f'dec.{i + 1}.mab'] = net.dec[i].mab
    mapping['dec.3'] = net.out
    state = {}
    for name, src in mapping.items():
        if isinstance(src, nn.Parameter): state[name] = src.detach().clone(); continue
        for k, v in src.state_dict().items(): state[f'{name}.{k}'] = v.clone()
    official.load_state_dict(state)                                          # strict: every tensor accounted for
    return official


@torch.no_grad()
def evaluate(model, sets):
    model.eval()
    ll, ari = [], []
    for b in sets:
        logits, mu, sigma = model(b.X)
        mix = GaussianMixture(mu, sigma, logits)
        ll.append(mix.log_prob(b.X).mean().item())
        ari.append(adjusted_rand_index(mix.log_joint(b.X).argmax(-1), b.labels,
                                       torch.ones_like(b.labels, dtype=torch.bool)))
    model.train()
    return statistics.mean(ll), statistics.mean(ari)


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument('--steps', type=int, default=3000)
    p.add_argument('--seeds', type=int, nargs='+', default=[0, 1])
    p.add_argument('--num-inds', type=int, default=16)
    p.add_argument('--eval-every', type=int, default=500)
    p.add_argument('--held-out', type=int, default=20, help='held-out batches of 10 sets (official-protocol sizes)')
    p.add_argument('--json', default=None)
    args = p.parse_args(argv)
    protocol = CLUSTERING_PROTOCOLS['official']

    torch.manual_seed(0)
    ours = MoGClusterer(num_inds=args.num_inds, min_sigma=0.)
    official = copy_ours_into_official(ours, OfficialClusterer(num_inds=args.num_inds))
    X = MoGSets(n_range=(300, 300), seed=5).sample().X
    with torch.no_grad():
        (a_logits, a_mu, a_sigma), (b_logits, b_mu, b_sigma) = ours(X), official(X)
    same = max((a_logits.log_softmax(-1) - b_logits).abs().max().item(), (a_mu - b_mu).abs().max().item(),
               (a_sigma - b_sigma).abs().max().item())
    print(f"equivalence: our model's weights in the official model, largest output difference {same:.1e}")
    n_ours = sum(p.numel() for p in ours.parameters()); n_official = sum(p.numel() for p in official.parameters())
    print(f"parameters: ours {n_ours:,}, official {n_official:,}")

    sets = held_out_sets(args.held_out, n_range=protocol['n_range'])
    oracle = statistics.mean(mog_log_prob(b.X, b.pi.log(), b.mu, b.sigma).mean().item() for b in sets)
    curves, times = {'ours': {}, 'official': {}}, {'ours': [], 'official': []}
    for seed in args.seeds:
        models = {}
        torch.manual_seed(seed); models['ours'] = MoGClusterer(num_inds=args.num_inds)
        torch.manual_seed(seed); models['official'] = OfficialClusterer(num_inds=args.num_inds)
        opts = {k: torch.optim.Adam(m.parameters(), lr=1e-3) for k, m in models.items()}
        scheds = {k: torch.optim.lr_scheduler.MultiStepLR(o, [int(protocol['decay_at'] * args.steps)],
                                                          0.1) for k, o in opts.items()}
        stream = MoGSets(n_range=protocol['n_range'], seed=seed)
        for step in range(1, args.steps + 1):
            batch = stream.sample()
            for k, m in models.items():
                t0 = time.perf_counter()
                loss = clustering_loss(m, batch)['loss']                       # one objective for both models
                opts[k].zero_grad(set_to_none=True); loss.backward(); opts[k].step(); scheds[k].step()
                times[k].append(time.perf_counter() - t0)
            if step % args.eval_every == 0 or step == args.steps:
                row = []
                for k, m in models.items():
                    ll, ari = evaluate(m, sets)
                    curves[k].setdefault(step, []).append({'seed': seed, 'll': ll, 'ari': ari})
                    row.append(f"{k} {ll:.4f} (ARI {ari:.3f})")
                print(f"seed {seed} step {step}: " + ', '.join(row) + f"; oracle {oracle:.4f}", flush=True)

    mean = lambda rs, key: statistics.mean(r[key] for r in rs)
    steps = sorted(curves['ours'])
    rows = [{'step': s,
             **{f'{k}_ll': mean(curves[k][s], 'll') for k in curves}, **{f'{k}_ari': mean(curves[k][s],
                                                                                          'ari') for k in curves}}
            for s in steps]
    ratio = statistics.median(times['official']) / statistics.median(times['ours'])
    print(f"\nmean over seeds {args.seeds}; held-out LL/point (ARI) on {args.held_out} batches of 10 sets of 300-599 points; oracle {oracle:.4f}")
    print("| step | ours | official |\n|---:|---:|---:|")
    for r in rows: print(f"| {r['step']:,} | {r['ours_ll']:.4f} ({r['ours_ari']:.3f}) | {r['official_ll']:.4f} ({r['official_ari']:.3f}) |")
    print(f"median step time, official / ours: {ratio:.2f}")
    result = {'torch': torch.__version__, 'threads': torch.get_num_threads(), 'steps': args.steps, 'seeds': args.seeds,
              'num_inds': args.num_inds, 'held_out_batches': args.held_out, 'oracle_ll': oracle,
              'equivalence_max_abs_diff': same, 'parameters': {'ours': n_ours, 'official': n_official},
              'rows': rows, 'per_seed': curves, 'step_time_ratio_official_over_ours': ratio}
    if args.json:
        with open(args.json, 'w') as f: json.dump(result, f, indent=2)
    return result


if __name__ == '__main__':
    main()
