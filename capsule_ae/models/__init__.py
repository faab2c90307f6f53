"""The models: CCAE, PCAE, OCAE, SCAE and CapsNet."""
