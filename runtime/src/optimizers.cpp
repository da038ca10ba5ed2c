#include "mlperf/rt/autodiff.h"
#include "mlperf/rt/context.h"
#include "mlperf/rt/error.h"
#include "mlperf/rt/ops.h"

namespace mlperf::rt {

namespace {

struct Trainable {
  std::string name;
  Node value;
};

std::vector<Trainable> trainables(Context& ctx, Graph& g) {
  std::vector<Trainable> out;
  for (const auto& v : g.variables())
    if (ctx.trainable(v.name) && is_float(g.node(v.node).dtype)) out.push_back({v.name, g.handle(v.node)});
  return out;
}

std::vector<Node> grads_of(Node loss, const std::vector<Trainable>& vars) {
  if (!loss.valid()) throw ArgumentError("optimizer: empty loss node");
  if (loss.rank() != 0) throw ShapeError("optimizer: the loss must be a scalar, got shape " + loss.shape().to_string());
  std::vector<Node> wrt;
  for (const auto& v : vars) wrt.push_back(v.value);
  return gradients(loss, wrt);
}

Node slot(Context& ctx, Graph& g, const std::string& name, Node like) {
  return ctx.variable(g, name, like.shape(), Initializer::zeros(), like.dtype(), false);
}

}  // namespace

void SGD::minimize(Context& ctx, Graph& g, Node loss) {
  std::vector<Trainable> vars = trainables(ctx, g);
  std::vector<Node> grads = grads_of(loss, vars);
  for (size_t i = 0; i < vars.size(); ++i) {
    Node w = vars[i].value, gr = grads[i];
    if (momentum_ != 0.0) {
      std::string vname = "optimizer/sgd/velocity/" + vars[i].name;
      Node v = slot(ctx, g, vname, w) * momentum_ + gr;
      ctx.assign(g, vname, v);
      gr = v;
    }
    ctx.assign(g, vars[i].name, w - gr * lr_);
  }
}

void Adam::minimize(Context& ctx, Graph& g, Node loss) {
  std::vector<Trainable> vars = trainables(ctx, g);
  std::vector<Node> grads = grads_of(loss, vars);
  Node step = ctx.variable(g, "optimizer/adam/step", Shape{}, Initializer::zeros(), DType::F32, false) + 1.0;
  ctx.assign(g, "optimizer/adam/step", step);
  Node bc1 = 1.0 - pow(g.scalar(b1_), step);
  Node bc2 = 1.0 - pow(g.scalar(b2_), step);
  for (size_t i = 0; i < vars.size(); ++i) {
    Node w = vars[i].value, gr = grads[i];
    std::string mname = "optimizer/adam/m/" + vars[i].name, vname = "optimizer/adam/v/" + vars[i].name;
    Node m = slot(ctx, g, mname, w) * b1_ + gr * (1.0 - b1_);
    Node v = slot(ctx, g, vname, w) * b2_ + square(gr) * (1.0 - b2_);
    ctx.assign(g, mname, m);
    ctx.assign(g, vname, v);
    Node m_hat = m / cast(bc1, w.dtype());
    Node v_hat = v / cast(bc2, w.dtype());
    ctx.assign(g, vars[i].name, w - m_hat * lr_ / (sqrt(v_hat) + eps_));
  }
}

}  // namespace mlperf::rt
