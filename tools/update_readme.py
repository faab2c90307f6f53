"""Fill the results section of README.md from the committed results files (so no number is typed by hand): the
headline of each model (its runs declared in results/registry.json, read by `capsule_ae.results`), the trained models
that ship, where each chapter shows every
run, and the benchmarks (`capsule_ae.performance`).

    python tools/update_readme.py          # rewrite the section
    python tools/update_readme.py --check  # exit 1 if README.md is not what the results files say
"""
import sys
from pathlib import Path
from capsule_ae.cli import command_line        # a run's config -> the command that trains it
from capsule_ae.results import headline_rows, headline_table, main_job, fill_between, registry_headlines
from capsule_ae.performance import performance_section

root = Path(__file__).resolve().parent.parent
HEADLINES = ['ccae', 'ccae-long', 'scae-mnist', 'capsnet-mnist', 'capsnet-multimnist', 'clustering-isab16']   # the table's rows, by name
CHAPTERS = [   # (model, chapter, what it shows of the runs, [(figure, caption)])
    ('Constellation Capsule Autoencoder', '07_ccae_training',
     "the baselines, both recipes over three seeds, the official recipe's capsule death and the term that prevents "
     "it, what a batch of 128 and a late drop in the learning rate add, the main job and its spread over seeds, twelve "
     "seeds of its recipe, the choice of a seed or of where the learning rate drops by the training log-likelihood "
     "(the long recipe, over twelve seeds), what sets the low seeds apart (split "
     "patterns, late or wrong templates) and the probes against it",
     [('results/ccae_main/constellations.png', 'held-out constellations: truth and winning capsules')]),
    ('Image SCAE', '15_scae_training',
     'the CPU recipe and its curves, every seed of it, what the noise hides, what the object layer adds over the '
     'parts it reads and which digits share capsules, the seeds continued towards 100,000 steps, a stronger prior '
     'between-example term on every seed and from step 0, the branch of every seed to a batch of 128 (the paper\'s), '
     'which is the headline, and what ends the plateau at the start of training',
     [('results/scae_b128_s0/capsules.png', 'object-capsule presences per digit, seed 0 at 100,000 steps'),
      ('results/scae_b128_s0/curves.png', 'SCAE training curves, seed 0: batch 32 to step 60,000, then 128')]),
    ('CapsNet', '11_capsnet_training',
     "the paper's recipe on two CPU cores and on a GPU, reconstructions, dimension perturbations",
     [('results/capsnet_gpu/reconstructions.png', 'test digits and their reconstructions'),
      ('results/capsnet_gpu/perturbations.png', 'dimension perturbations')]),
    ('CapsNet on MultiMNIST', '11b_multimnist',
     "the pairs of overlapping digits as the official script builds them, the two-label loss and metric, one epoch on a "
     "CPU core, and each digit decoded from its own capsule",
     [('results/multimnist/cpu_e1/seed_0/reconstructions.png',
       'MultiMNIST test pairs and each digit decoded from its own capsule (red, green)')]),
    ('Amortized clustering', '04_clustering',
     "the paper's and the official code's protocols, the diverging seed and gradient clipping, where the gap to the "
     "oracle lies, this model beside the official one",
     [('results/clustering/clusters.png', 'held-out sets coloured by predicted cluster')]),
]


def headlines():
    "One row per headline, as each training chapter declares it."
    return ['### Headlines', '',
            'Each model by one result (the CCAE by two: the main job, and a longer recipe that does better): the seeds '
            'of one recipe, as its chapter declares it, against the published numbers (`results/published.json`, with '
            'their sources). The lowest and the highest seed give the range in which to expect a number from the '
            'command, here or on another machine. Its chapter shows every run.', '',
            headline_table(headline_rows(registry_headlines(root / 'results', HEADLINES), root / 'results', command_line)), '']


def shipped():
    "The trained models that ship, by name, with the seeds that ship and what each is measured by."
    lines = ['| name | model | seeds | measure |', '|---|---|---|---|']
    for h in registry_headlines(root / 'results'):
        if h.ships: lines.append(f"| `{h.name}` | {h.model} | {', '.join(h.runs)} | {h.what} |")
    return lines


def chapters():
    "Where each chapter shows every run of its model: commands, tables, curves; and one figure or two."
    lines = ['### The chapters', '']
    for model, chapter, shows, figures in CHAPTERS:
        lines += [f"{model}: `nbs/{chapter}.ipynb` shows {shows}.", '']
        for path, caption in figures:
            if not (root / path).exists(): raise FileNotFoundError(f"{path}, a README figure, is missing")
            lines += [f"![{caption}]({path})", '']
    return lines + ['Every other committed run (probes, continuations, branches, the runs that failed) is in the appendix, '
                    '`nbs/99_experiments.ipynb`, with its command and result.', '']


def main():
    readme = (root / 'README.md').read_text()
    results = '\n'.join(['', *headlines(), *chapters(), *performance_section(root / 'results'), ''])
    new = fill_between(readme, '<!-- results:start -->', '<!-- results:end -->', results)
    new = fill_between(new, '<!-- main:start -->', '<!-- main:end -->',
                       '\n' + main_job(root / 'results', command_line) + '\n')
    new = fill_between(new, '<!-- shipped:start -->', '<!-- shipped:end -->', '\n' + '\n'.join(shipped()) + '\n')
    if '--check' in sys.argv:
        if new != readme:
            print('README.md results section is out of date: run python tools/update_readme.py'); sys.exit(1)
        print('README.md results agree with the results files')
    else:
        (root / 'README.md').write_text(new)


if __name__ == '__main__':
    main()
