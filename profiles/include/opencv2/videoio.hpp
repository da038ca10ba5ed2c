// OpenCV's video input and output (opencv2/videoio.hpp): see core.hpp. Declarations only.
#pragma once

#include "core.hpp"

namespace cv {
enum VideoCaptureAPIs { CAP_ANY = 0, CAP_V4L2 = 200, CAP_FFMPEG = 1900, CAP_GSTREAMER = 1800 };
enum VideoCaptureProperties { CAP_PROP_POS_MSEC = 0, CAP_PROP_POS_FRAMES = 1, CAP_PROP_FRAME_WIDTH = 3,
                              CAP_PROP_FRAME_HEIGHT = 4, CAP_PROP_FPS = 5, CAP_PROP_FOURCC = 6,
                              CAP_PROP_FRAME_COUNT = 7 };
class VideoCapture {
 public:
  VideoCapture();
  explicit VideoCapture(const std::string &filename, int apiPreference = CAP_ANY);
  explicit VideoCapture(int index, int apiPreference = CAP_ANY);
  virtual ~VideoCapture();
  virtual bool open(const std::string &filename, int apiPreference = CAP_ANY);
  virtual bool open(int index, int apiPreference = CAP_ANY);
  virtual bool isOpened() const;
  virtual void release();
  virtual bool grab();
  virtual bool retrieve(OutputArray image, int flag = 0);
  virtual bool read(OutputArray image);
  virtual VideoCapture &operator>>(Mat &image);
  virtual double get(int propId) const;
  virtual bool set(int propId, double value);
};
class VideoWriter {
 public:
  VideoWriter();
  VideoWriter(const std::string &filename, int fourcc, double fps, Size frameSize, bool isColor = true);
  virtual ~VideoWriter();
  virtual bool open(const std::string &filename, int fourcc, double fps, Size frameSize, bool isColor = true);
  virtual bool isOpened() const;
  virtual void release();
  virtual void write(InputArray image);
  virtual VideoWriter &operator<<(const Mat &image);
  static int fourcc(char c1, char c2, char c3, char c4);
};
}  // namespace cv
