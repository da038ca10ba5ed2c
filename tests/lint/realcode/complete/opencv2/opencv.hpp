// What unresolved_types.cc needs from the header, when it is found.
namespace cv {
struct Mat {
  void *kernel() const;
  cudaMemcpyKind direction() const;
};
} // namespace cv
