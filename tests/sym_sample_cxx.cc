// sym_sample_cxx.cc - C++ (namespaces, a template, an operator, a lambda)
// and Rust-mangled names, for test_sym_elf.c and sym_elf_compare.sh: perf
// 6.1 prints them demangled as libiberty's cplus_demangle(name, 0) does.
// Run as "sym_sample_cxx SECONDS-ISH".
#include <vector>
#include <cstdio>
#include <cstdlib>
namespace outer { namespace inner {
template <typename T, int N> struct Box {
	__attribute__((noinline)) T spin(T x, const std::vector<T> &v);
};
template <typename T, int N> T Box<T, N>::spin(T x, const std::vector<T> &v)
{
	for (int i = 0; i < 2000; i++) x = x * 3 + v[i % v.size()] + N;
	return x;
}
} }
struct Op { __attribute__((noinline)) long operator()(long a) const { outer::inner::Box<long, 7> b; std::vector<long> v{1,2,3}; return b.spin(a, v); } };
extern "C" __attribute__((noinline)) long rust_legacy(long x) __asm__("_ZN4core3ptr85drop_in_place$LT$std..rt..lang_start$LT$$LP$$RP$$GT$..$u7b$$u7b$closure$u7d$$u7d$$GT$17h0123456789abcdefE");
extern "C" __attribute__((noinline)) long rust_legacy(long x) { for (int i = 0; i < 2000; i++) x = x * 5 + 1; return x; }
extern "C" __attribute__((noinline)) long rust_v0(long x) __asm__("_RNvMNtCs9ltgdHTiPiY_4core3ptrINtB2_8NonNullhE7as_mut1");
extern "C" __attribute__((noinline)) long rust_v0(long x) { for (int i = 0; i < 2000; i++) x = x * 7 + 1; return x; }
volatile long sink;
int main(int argc, char **argv)
{
	long n = (long)(atof(argv[1]) * 100000);
	auto lam = [](long y) { return y * 2; };
	for (long i = 0; i < n; i++) { sink += Op()(i); sink += rust_legacy(i); sink += rust_v0(i); sink += lam(i); }
	printf("%ld\n", (long)sink);
}
