__version__ = "0.0.1"

import multiprocessing as _mp, os as _os
if _os.environ.get('IN_TEST') and _mp.parent_process() is not None and 'OMP_NUM_THREADS' not in _os.environ:
    # nbdev_test runs the notebooks in parallel, one worker process per core. Each torch would otherwise start one
    # thread per core, and the threads of the workers would fight for the cores (measured: 07 and 11 side by side
    # take 188 s at torch's default and 112 s at one thread each). So a test worker computes on one thread, and the
    # command-line runs it starts inherit that.
    _os.environ['OMP_NUM_THREADS'] = '1'
    import torch as _torch
    _torch.set_num_threads(1)

# The names a user starts from; everything else lives in its layer: nn (layers and likelihoods), data, models,
# train (the loop and its tools), experiments (one recipe per experiment), report.
from .nn.attention import SetTransformer
from .models.capsnet import CapsNet
from .models.ccae import CCAE
from .models.scae import SCAE
from .train.loop import fit
from .pretrained import list_pretrained, load_pretrained, save_pretrained
