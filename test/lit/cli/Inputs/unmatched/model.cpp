// TORCH_MODULE(Net) defines NetImpl, not Net.
struct NetImpl {
  int forward(int x);
};
int NetImpl::forward(int x) { return x * 2; }
