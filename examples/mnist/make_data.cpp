// make_data: writes a synthetic MNIST in the original idx format.
//
//   make_data OUT_DIR [--seed N]
//
// OUT_DIR is created if needed.
// It writes the four files torch::data::datasets::MNIST reads:
//   train-images-idx3-ubyte  train-labels-idx1-ubyte   (60000 images)
//   t10k-images-idx3-ubyte   t10k-labels-idx1-ubyte    (10000 images)
// The counts are fixed because libtorch's reader checks them (kTrainSize,
// kTestSize in torch/csrc/api/src/data/datasets/mnist.cpp); a trainer that
// wants fewer samples uses a smaller sampler.
//
// Each image is a 28x28 "handwritten" digit: the class's pen strokes
// (polylines in a unit box) are jittered, scaled, sheared, rotated and
// shifted, drawn with a random pen width and anti-aliased edges, then
// speckled with noise. Labels are drawn uniformly, so a sequential sampler
// still sees every class in every batch. Same seed, same bytes.
//
// Plain C++17, no dependencies.

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace {

constexpr int kRows = 28;
constexpr int kCols = 28;
constexpr uint32_t kTrainSize = 60000;
constexpr uint32_t kTestSize = 10000;
constexpr uint32_t kImageMagic = 2051;
constexpr uint32_t kLabelMagic = 2049;
constexpr double kPi = 3.14159265358979323846;

// splitmix64: small, fast, and the same on every platform and compiler
// (std::uniform_real_distribution is not).
class Rng {
 public:
  explicit Rng(uint64_t seed) : state_(seed) {}
  uint64_t next() {
    uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  double uniform() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }
  double uniform(double lo, double hi) { return lo + (hi - lo) * uniform(); }
  int below(int n) { return static_cast<int>(next() % static_cast<uint64_t>(n)); }

 private:
  uint64_t state_;
};

struct Point {
  double x, y;
};
using Stroke = std::vector<Point>;
using Glyph = std::vector<Stroke>;

// An elliptic arc from angle a0 to a1 (degrees, counter-clockwise, y down
// means "up" is -y) centred at (cx, cy) with radii (rx, ry).
Stroke arc(double cx, double cy, double rx, double ry, double a0, double a1, int n = 12) {
  Stroke s;
  for (int i = 0; i <= n; ++i) {
    const double a = (a0 + (a1 - a0) * i / n) * kPi / 180.0;
    s.push_back({cx + rx * std::cos(a), cy - ry * std::sin(a)});
  }
  return s;
}

Stroke join(Stroke a, const Stroke& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

// The ten digits as pen strokes in a unit box (x right, y down).
std::array<Glyph, 10> make_glyphs() {
  std::array<Glyph, 10> g;
  g[0] = {arc(0.5, 0.5, 0.32, 0.45, 0, 360, 20)};
  g[1] = {{{0.35, 0.22}, {0.55, 0.05}, {0.55, 0.95}}};
  g[2] = {join(arc(0.5, 0.3, 0.3, 0.25, 160, -30, 10), Stroke{{0.18, 0.95}, {0.85, 0.95}})};
  g[3] = {arc(0.48, 0.28, 0.3, 0.23, 150, -90, 10), arc(0.48, 0.73, 0.33, 0.23, 90, -150, 10)};
  g[4] = {{{0.6, 0.05}, {0.15, 0.65}, {0.9, 0.65}}, {{0.68, 0.35}, {0.68, 0.95}}};
  g[5] = {{{0.82, 0.05}, {0.25, 0.05}, {0.2, 0.45}},
          join(Stroke{{0.2, 0.45}}, arc(0.5, 0.68, 0.32, 0.27, 120, -150, 10))};
  g[6] = {join(arc(0.7, 0.45, 0.45, 0.42, 60, 180, 8), arc(0.5, 0.7, 0.27, 0.25, 180, -180, 14))};
  g[7] = {{{0.15, 0.05}, {0.85, 0.05}, {0.4, 0.95}}, {{0.35, 0.5}, {0.72, 0.5}}};
  g[8] = {arc(0.5, 0.27, 0.24, 0.22, 0, 360, 14), arc(0.5, 0.72, 0.3, 0.24, 0, 360, 14)};
  g[9] = {arc(0.5, 0.3, 0.28, 0.25, 0, 360, 14), {{0.78, 0.3}, {0.7, 0.95}}};
  return g;
}

// Draws a segment into `img` with pen half-width `w`, keeping the maximum.
void draw_segment(std::vector<float>& img, Point a, Point b, double w) {
  const double pad = w + 1.0;
  const int x0 = std::max(0, static_cast<int>(std::floor(std::min(a.x, b.x) - pad)));
  const int x1 = std::min(kCols - 1, static_cast<int>(std::ceil(std::max(a.x, b.x) + pad)));
  const int y0 = std::max(0, static_cast<int>(std::floor(std::min(a.y, b.y) - pad)));
  const int y1 = std::min(kRows - 1, static_cast<int>(std::ceil(std::max(a.y, b.y) + pad)));
  const double dx = b.x - a.x, dy = b.y - a.y;
  const double len2 = dx * dx + dy * dy;
  for (int y = y0; y <= y1; ++y) {
    for (int x = x0; x <= x1; ++x) {
      const double px = x + 0.5, py = y + 0.5;
      double t = len2 > 0 ? ((px - a.x) * dx + (py - a.y) * dy) / len2 : 0.0;
      t = std::clamp(t, 0.0, 1.0);
      const double ex = a.x + t * dx - px, ey = a.y + t * dy - py;
      const double d = std::sqrt(ex * ex + ey * ey);
      const double v = std::clamp(w + 0.5 - d, 0.0, 1.0);  // anti-aliased edge
      float& p = img[static_cast<size_t>(y) * kCols + x];
      p = std::max(p, static_cast<float>(v));
    }
  }
}

// Renders one sample of `digit` as 784 bytes.
void render(const Glyph& glyph, Rng& rng, uint8_t* out) {
  std::vector<float> img(kRows * kCols, 0.0f);
  // A random affine map from the unit box to pixels, around the centre:
  // MNIST digits sit in a 20x20 box centred in the 28x28 image.
  const double scale = 19.0 * rng.uniform(0.8, 1.05);
  const double aspect = rng.uniform(0.8, 1.15);
  const double shear = rng.uniform(-0.3, 0.3);
  const double angle = rng.uniform(-0.2, 0.2);
  const double cx = 14.0 + rng.uniform(-2.0, 2.0);
  const double cy = 14.0 + rng.uniform(-2.0, 2.0);
  const double width = rng.uniform(0.7, 1.6);  // pen half-width in pixels
  const double jitter = 0.035;
  const double c = std::cos(angle), s = std::sin(angle);
  auto map = [&](Point p) {
    const double u = (p.x - 0.5 + rng.uniform(-jitter, jitter)) * aspect;
    const double v = p.y - 0.5 + rng.uniform(-jitter, jitter);
    const double x = u + shear * v;
    return Point{cx + scale * (c * x - s * v), cy + scale * (s * x + c * v)};
  };
  for (const Stroke& stroke : glyph) {
    Point prev = map(stroke.front());
    for (size_t i = 1; i < stroke.size(); ++i) {
      const Point next = map(stroke[i]);
      draw_segment(img, prev, next, width);
      prev = next;
    }
  }
  for (size_t i = 0; i < img.size(); ++i) {
    double v = img[i];
    if (rng.uniform() < 0.03) v += rng.uniform(0.2, 0.8);  // speckles
    v *= rng.uniform(0.85, 1.0);                           // ink unevenness
    out[i] = static_cast<uint8_t>(std::lround(std::clamp(v, 0.0, 1.0) * 255.0));
  }
}

void put_u32(std::ofstream& f, uint32_t v) {
  const unsigned char b[4] = {static_cast<unsigned char>(v >> 24), static_cast<unsigned char>(v >> 16),
                              static_cast<unsigned char>(v >> 8), static_cast<unsigned char>(v)};
  f.write(reinterpret_cast<const char*>(b), 4);
}

bool write_split(const std::string& dir, const char* images_name, const char* labels_name,
                 uint32_t count, Rng& rng, const std::array<Glyph, 10>& glyphs) {
  std::vector<uint8_t> pixels(static_cast<size_t>(count) * kRows * kCols);
  std::vector<uint8_t> labels(count);
  for (uint32_t i = 0; i < count; ++i) {
    labels[i] = static_cast<uint8_t>(rng.below(10));
    render(glyphs[labels[i]], rng, &pixels[static_cast<size_t>(i) * kRows * kCols]);
  }
  const std::string images_path = dir + "/" + images_name;
  const std::string labels_path = dir + "/" + labels_name;
  std::ofstream images(images_path, std::ios::binary);
  std::ofstream targets(labels_path, std::ios::binary);
  if (!images || !targets) {
    std::fprintf(stderr, "make_data: cannot write %s or %s\n", images_path.c_str(), labels_path.c_str());
    return false;
  }
  put_u32(images, kImageMagic);
  put_u32(images, count);
  put_u32(images, kRows);
  put_u32(images, kCols);
  images.write(reinterpret_cast<const char*>(pixels.data()), static_cast<std::streamsize>(pixels.size()));
  put_u32(targets, kLabelMagic);
  put_u32(targets, count);
  targets.write(reinterpret_cast<const char*>(labels.data()), static_cast<std::streamsize>(labels.size()));
  images.close();
  targets.close();
  if (!images || !targets) {
    std::fprintf(stderr, "make_data: error writing %s or %s\n", images_path.c_str(), labels_path.c_str());
    return false;
  }
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  std::string dir;
  uint64_t seed = 20251125;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--seed" && i + 1 < argc) {
      seed = std::strtoull(argv[++i], nullptr, 10);
    } else if (arg == "-h" || arg == "--help") {
      std::printf("usage: make_data OUT_DIR [--seed N]\n"
                  "writes a synthetic MNIST (60000 train, 10000 test images) in idx format\n");
      return 0;
    } else if (dir.empty() && arg.rfind("-", 0) != 0) {
      dir = arg;
    } else {
      std::fprintf(stderr, "make_data: unexpected argument '%s' (try --help)\n", arg.c_str());
      return 2;
    }
  }
  if (dir.empty()) {
    std::fprintf(stderr, "usage: make_data OUT_DIR [--seed N]\n");
    return 2;
  }
  std::error_code error;
  std::filesystem::create_directories(dir, error);
  if (error) {
    std::fprintf(stderr, "make_data: cannot create %s: %s\n", dir.c_str(), error.message().c_str());
    return 1;
  }
  const std::array<Glyph, 10> glyphs = make_glyphs();
  Rng train_rng(seed), test_rng(seed ^ 0x7E57DA7Aull);
  if (!write_split(dir, "train-images-idx3-ubyte", "train-labels-idx1-ubyte", kTrainSize, train_rng, glyphs) ||
      !write_split(dir, "t10k-images-idx3-ubyte", "t10k-labels-idx1-ubyte", kTestSize, test_rng, glyphs)) {
    return 1;
  }
  std::printf("make_data: wrote %u train and %u test images to %s\n", kTrainSize, kTestSize, dir.c_str());
  return 0;
}
