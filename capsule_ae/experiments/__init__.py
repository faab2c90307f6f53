"""One recipe module per experiment, with its evaluation; the segmentation metrics they score with."""
