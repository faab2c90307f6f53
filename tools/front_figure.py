"""The front page's picture, made from two committed figures of the headline runs: the CCAE main job's held-out
constellations (truth above, its capsules below) and the SCAE's object-capsule presences per digit, both learned
without labels.

    python tools/front_figure.py        # writes results/front.png
"""
from pathlib import Path
import matplotlib
matplotlib.use('Agg')
import matplotlib.pyplot as plt

root = Path(__file__).resolve().parent.parent
CCAE = root / 'results/ccae/main/seed_0/constellations.png'       # 2 rows x 8 scenes, its title on top
SCAE = root / 'results/scae/b128/seed_0/capsules.png'          # the presence map on the left, k-means on the right


def main(out=root / 'results/front.png'):
    ccae, scae = plt.imread(CCAE), plt.imread(SCAE)
    h, w = ccae.shape[:2]
    scenes = ccae[int(0.06 * h):, :w // 2]                      # below the title: the first four scenes
    presences = scae[:, :int(0.66 * scae.shape[1])]              # the presence map and its colour bar
    fig, ax = plt.subplots(1, 2, figsize=(13, 3.6), gridspec_kw=dict(width_ratios=[scenes.shape[1] / scenes.shape[0],
                                                                                     presences.shape[1] / presences.shape[0]]))
    ax[0].imshow(scenes); ax[1].imshow(presences)
    ax[0].set_title('CCAE: which points form which constellation (top: the truth; bottom: its capsules)', fontsize=10)
    ax[1].set_title('SCAE: how present each object capsule is for each MNIST digit', fontsize=10)
    for a in ax: a.axis('off')
    fig.suptitle('Both learned without labels', fontsize=11, y=0.99)
    fig.tight_layout()
    fig.savefig(out, dpi=110)
    print(f'wrote {out.relative_to(root)}')


if __name__ == '__main__':
    main()
