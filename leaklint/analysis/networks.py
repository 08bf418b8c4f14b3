"""A Keras ``Sequential`` of dense layers described as scikit-learn's multi-layer perceptron.

The runtime checker never runs TensorFlow; a stack of ``Dense`` layers (with the input,
flatten, dropout and batch-normalisation layers that do not change what it can learn on
a table) is the network scikit-learn's ``MLPClassifier`` / ``MLPRegressor`` builds from
``hidden_layer_sizes``. The output layer decides the task: a sigmoid or softmax output
classifies, a linear one regresses. Anything else (recurrent, convolutional, embedding
layers, an activation the MLP lacks) is not translated.
"""
from __future__ import annotations

from typing import Optional

from .specs import CallSpec

PASSIVE_LAYERS = frozenset({"Input", "InputLayer", "Flatten", "Dropout", "BatchNormalization"})
ACTIVATIONS = {"relu": "relu", "tanh": "tanh", "sigmoid": "logistic", "linear": "identity", None: "identity"}
CLASSIFYING = frozenset({"sigmoid", "softmax"})


def as_mlp(spec) -> Optional[CallSpec]:
    """``Sequential([Dense(64, activation="relu"), Dense(1, activation="sigmoid")])`` (or
    built with ``.add``) as ``MLPClassifier(hidden_layer_sizes=(64,), activation="relu")``."""
    if not (isinstance(spec, CallSpec) and spec.qualname.endswith(".Sequential") and spec.args
            and isinstance(spec.args[0], list)):
        return None
    dense = []
    for layer in spec.args[0]:
        if not isinstance(layer, CallSpec):
            return None
        kind = layer.qualname.rsplit(".", 1)[-1]
        if kind in PASSIVE_LAYERS:
            continue
        units = layer.kwarg("units", layer.args[0] if layer.args else None)
        if kind != "Dense" or not isinstance(units, int) or isinstance(units, bool) or units < 1:
            return None
        dense.append((units, layer.kwarg("activation")))
    if len(dense) < 2:
        return None
    hidden, (_, output) = dense[:-1], dense[-1]
    activations = {activation for _, activation in hidden}
    if len(activations) != 1 or next(iter(activations)) not in ACTIVATIONS or output not in CLASSIFYING | {None, "linear"}:
        return None
    name = "MLPClassifier" if output in CLASSIFYING else "MLPRegressor"
    settings = (("hidden_layer_sizes", tuple(units for units, _ in hidden)), ("activation", ACTIVATIONS[next(iter(activations))]))
    return CallSpec(f"sklearn.neural_network.{name}", (), settings)


def softmax_classes(spec) -> Optional[int]:
    """The classes a Sequential's softmax output layer of more than two units predicts."""
    if not (isinstance(spec, CallSpec) and spec.qualname.endswith(".Sequential") and spec.args
            and isinstance(spec.args[0], list) and spec.args[0]):
        return None
    last = spec.args[0][-1]
    if not isinstance(last, CallSpec) or last.kwarg("activation") != "softmax":
        return None
    units = last.kwarg("units", last.args[0] if last.args else None)
    return units if isinstance(units, int) and not isinstance(units, bool) and units > 2 else None
