// A dataset that holds OpenCV images, on a machine without OpenCV: the
// stand-in declarations keep the dataset's class valid, so the range-for over
// its loader (which clang drops when the class is invalid) and the item() in
// it are still seen.
#include <torch/torch.h>

#include <opencv2/opencv.hpp>

struct Images : torch::data::datasets::Dataset<Images> {
  explicit Images(std::vector<std::string> paths) : paths(std::move(paths)) {}
  torch::data::Example<> get(size_t i) override {
    cv::Mat image = cv::imread(paths[i]);
    cv::cvtColor(image, image, cv::COLOR_BGR2RGB);
    cv::resize(image, image, cv::Size(64, 64));
    auto t = torch::from_blob(image.data, {image.rows, image.cols, 3}, torch::kByte).permute({2, 0, 1});
    return {t.to(torch::kFloat).div(255), torch::zeros({1}, torch::kLong)};
  }
  torch::optional<size_t> size() const override { return paths.size(); }
  std::vector<std::string> paths;
  cv::Mat last;
};

int main() {
  torch::Device device(torch::kCUDA);
  torch::nn::Linear model(3 * 64 * 64, 2);
  model->to(device);
  torch::optim::SGD opt(model->parameters(), 0.1);
  auto loader = torch::data::make_data_loader(Images({"a.png"}).map(torch::data::transforms::Stack<>()), 4);
  double total = 0;
  for (auto &batch : *loader) {
    opt.zero_grad();
    auto loss = torch::nn::functional::cross_entropy(model->forward(batch.data.to(device).flatten(1)),
                                                     batch.target.to(device).flatten());
    loss.backward();
    opt.step();
    total += loss.item<double>();
  }
  return total > 0;
}
