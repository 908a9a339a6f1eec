"""recipes.py: a recipe sets train.py's flag defaults (flags on the command line win), its config
overrides name keys of the base config, and an unknown recipe is refused by name."""
import unittest

import _path  # noqa: F401

from recipes import RECIPES, SHIPPED_CONFIG, TRANSFORMER_CONFIG, apply_recipe  # noqa: E402
from train import build_parser as parser  # noqa: E402


class RecipesTest(unittest.TestCase):
    def test_recipe_sets_defaults_and_the_command_line_wins(self):
        ap = parser()
        apply_recipe(ap, "g2p-en-transformer-4x4")
        args = ap.parse_args([])
        self.assertEqual(args.model, "transformer")
        self.assertEqual(args.batch_size, 512)
        # The one command that trains the shipped weights: their seed and kept-weights rule.
        self.assertEqual(args.out, "models/g2p-en-transformer")
        self.assertEqual((args.seed, args.keep, args.average_last), (301, "last-average", 5))
        args = ap.parse_args(["--epochs", "3", "--out", "elsewhere"])
        self.assertEqual((args.epochs, args.out), (3, "elsewhere"))
        self.assertEqual(args.lr, 1.5e-3)

    def test_the_tail_recipe_keeps_the_flags_it_was_run_with(self):
        # It inherits the 4 + 4 recipe's flags, so a change to that recipe's seed or kept-weights
        # rule must not change what the tail (run-4x4-tail's weights) reproduces.
        ap = parser()
        apply_recipe(ap, "g2p-en-transformer-4x4-tail")
        args = ap.parse_args([])
        self.assertEqual((args.seed, args.keep), (1234, "best"))
        self.assertEqual(args.init_from, "models/g2p-en-transformer/run-4x4")
        self.assertEqual(args.out, "models/g2p-en-transformer/run-4x4-tail")

    def test_every_recipe_names_known_flags_and_config_keys(self):
        ap = parser()
        flags = {a.dest for a in ap._actions}
        for name, recipe in RECIPES.items():
            self.assertLessEqual(set(recipe["flags"]), flags, name)
            base = TRANSFORMER_CONFIG if recipe["flags"].get("model") == "transformer" else SHIPPED_CONFIG
            self.assertLessEqual(set(recipe["config"]), set(base), name)

    def test_unknown_recipe_is_refused_by_name(self):
        with self.assertRaises(SystemExit) as cm:
            apply_recipe(parser(), "no-such-recipe")
        self.assertIn("no-such-recipe", str(cm.exception))
        self.assertIn("g2p-en-transformer", str(cm.exception))


if __name__ == "__main__":
    unittest.main()
