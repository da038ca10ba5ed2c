#include <algorithm>

#include "test_util.h"

using rt::Shape;

class Datasets : public BackendTest {};

TEST_P(Datasets, DropLastYieldsOnlyFullBatches) {
  std::vector<float> x(10 * 3);
  for (size_t i = 0; i < x.size(); ++i) x[i] = static_cast<float>(i);
  rt::InMemoryDataset ds(4, rt::BatchMode::DropLast);
  ds.add_column(x, Shape{3});
  EXPECT_EQ(ds.batches_per_epoch(), 2);
  auto b1 = ds.next();
  ASSERT_TRUE(b1);
  EXPECT_EQ(b1->columns[0].shape, (Shape{4, 3}));
  EXPECT_EQ(b1->valid, 4);
  auto b2 = ds.next();
  ASSERT_TRUE(b2);
  auto d = rt::InMemoryDataset::upload(backend, *b2);
  auto v = d.columns[0].materialize<float>();
  EXPECT_EQ(v.front(), 12.0f);
  EXPECT_EQ(v.back(), 23.0f);
  EXPECT_FALSE(ds.next());
  ds.reset();
  EXPECT_TRUE(ds.next());
}

TEST_P(Datasets, PadModeZeroPadsTheLastBatchAndMasksIt) {
  std::vector<int64_t> labels = {1, 2, 3, 4, 5};
  std::vector<float> x = {1, 2, 3, 4, 5};
  rt::InMemoryDataset ds(4, rt::BatchMode::Pad);
  ds.add_column(x, Shape{}).add_column(labels, Shape{});
  EXPECT_EQ(ds.batches_per_epoch(), 2);
  ds.next();
  auto last = ds.next();
  ASSERT_TRUE(last);
  EXPECT_EQ(last->valid, 1);
  auto d = rt::InMemoryDataset::upload(backend, *last);
  EXPECT_EQ(d.columns[0].shape(), (Shape{4}));
  EXPECT_EQ(d.columns[0].materialize<float>(), (std::vector<float>{5, 0, 0, 0}));
  EXPECT_EQ(d.columns[1].materialize<int64_t>(), (std::vector<int64_t>{5, 0, 0, 0}));
  EXPECT_EQ(d.mask.materialize<float>(), (std::vector<float>{1, 0, 0, 0}));
  // A masked mean over a padded batch equals the mean over the real rows, with one compiled shape.
  rt::Exec mean(backend, [](rt::Graph&, rt::Node v, rt::Node m) { return rt::reduce_sum(v * m) / rt::reduce_sum(m); });
  EXPECT_EQ(mean.run(d.columns[0], d.mask)[0].materialize<float>()[0], 5.0f);
  ds.reset();
  auto first = rt::InMemoryDataset::upload(backend, *ds.next());
  EXPECT_EQ(mean.run(first.columns[0], first.mask)[0].materialize<float>()[0], 2.5f);
  EXPECT_EQ(mean.compilations(), 1);
}

TEST_P(Datasets, ShuffleIsSeededAndDiffersPerEpoch) {
  std::vector<int32_t> ids(64);
  for (int i = 0; i < 64; ++i) ids[static_cast<size_t>(i)] = i;
  auto epoch_order = [&](rt::InMemoryDataset& ds) {
    std::vector<int32_t> out;
    while (auto b = ds.next()) {
      const auto* p = reinterpret_cast<const int32_t*>(b->columns[0].bytes.data());
      out.insert(out.end(), p, p + 16);
    }
    ds.reset();
    return out;
  };
  rt::InMemoryDataset a(16), b(16);
  a.add_column(ids, Shape{}).shuffle(3);
  b.add_column(ids, Shape{}).shuffle(3);
  auto a1 = epoch_order(a), a2 = epoch_order(a), b1 = epoch_order(b);
  EXPECT_EQ(a1, b1);
  EXPECT_NE(a1, a2);
  EXPECT_NE(a1, ids);
  std::sort(a1.begin(), a1.end());
  EXPECT_EQ(a1, ids);
}

TEST_P(Datasets, PrefetcherUploadsAheadOnABackgroundThread) {
  std::vector<float> x(64 * 8, 1.0f);
  rt::InMemoryDataset ds(8);
  ds.add_column(x, Shape{8});
  backend->synchronize();
  backend->reset_stats();
  rt::Prefetcher pf(backend, ds, 3);
  for (int i = 0; i < 200 && pf.uploaded() < 3; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(5));
  EXPECT_EQ(pf.uploaded(), 3);  // depth 3 batches are ready before the first is consumed
  int n = 0;
  while (auto b = pf.next()) {
    EXPECT_EQ(b->columns[0].shape(), (Shape{8, 8}));
    EXPECT_EQ(b->columns[0].materialize<float>()[63], 1.0f);
    ++n;
  }
  EXPECT_EQ(n, 8);
  EXPECT_EQ(backend->stats().h2d_copies, 16);  // data + mask per batch
}

TEST_P(Datasets, PrefetcherRestartServesTheNextEpochInItsNewOrder) {
  std::vector<float> x(24);
  for (size_t i = 0; i < x.size(); ++i) x[i] = static_cast<float>(i);
  rt::InMemoryDataset ds(4);
  ds.add_column(x, Shape{}).shuffle(11);
  auto epoch = [&](rt::Prefetcher& pf) {
    std::vector<float> seen;
    while (auto b = pf.next())
      for (float v : b->columns[0].materialize<float>()) seen.push_back(v);
    return seen;
  };
  rt::Prefetcher pf(backend, ds, 2);
  std::vector<float> first = epoch(pf);
  pf.restart();
  std::vector<float> second = epoch(pf);
  ASSERT_EQ(first.size(), 24u);
  ASSERT_EQ(second.size(), 24u);
  EXPECT_NE(first, second);  // reshuffled
  std::sort(first.begin(), first.end());
  std::sort(second.begin(), second.end());
  EXPECT_EQ(first, second);  // every example once per epoch
  pf.restart();
  EXPECT_TRUE(pf.next().has_value());
  pf.restart();  // in the middle of an epoch: the rest is dropped
  EXPECT_EQ(epoch(pf).size(), 24u);
}

TEST(DatasetErrors, MismatchedColumnsAreRejected) {
  rt::InMemoryDataset ds(2);
  ds.add_column(std::vector<float>(6), Shape{3});
  EXPECT_THROW(ds.add_column(std::vector<float>(4), Shape{}), rt::ShapeError);
  EXPECT_THROW(ds.add_column(std::vector<float>(5), Shape{2}), rt::ShapeError);
  EXPECT_THROW(rt::InMemoryDataset(0), rt::ArgumentError);
}

INSTANTIATE_FOR_ALL_BACKENDS(Datasets);
