"""The research bench beside the product: renders scenes, trains and exports the models, and
measures the reader. It imports ``companion``; ``companion`` never imports it."""
