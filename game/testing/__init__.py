"""
Support code shared by the test suite and the benchmarks. It lives in the `game`
package, not under tests/, so bench/ can use it without importing a test module;
nothing in the running site imports it.
"""
