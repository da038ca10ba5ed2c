// What unresolved_types.cc needs from the header, when it is found.
namespace vision {
template <int Channels> struct Frame {
  void *kernel() const;
  cudaMemcpyKind direction() const;
  int width(int i) const;
};
} // namespace vision
