// The decode budget against the shapes of schemas/arrays.pkt: empty values,
// one-element and nested arrays, struct chains, sparse maps of large values
// and values close to the size bound, each element a few bytes. Every C#
// decode stays within the allocation bound of AmplifyTests (docs/security.md):
// fixed-size arrays are objects, and the decoded-size model charges them so.
using System;
using Pkt;
using Test.Arrays;

namespace PktTests
{
    public static class ArrayTests
    {
        private const int MiB = 1024 * 1024;

        /// <summary>A message whose list holds <paramref name="count"/> copies of <paramref name="elem"/>, padded to <paramref name="n"/> bytes inside the body.</summary>
        private static byte[] ListOf(int n, int count, byte[] elem)
        {
            var w = new AmplifyTests.Wire(n);
            w.Body();
            w.U32((uint)count);
            for (int i = 0; i < count; i++)
            {
                foreach (var b in elem) w.U8(b);
            }
            return w.Bytes;
        }

        private static void Shape(string name, int n, byte[] elem, long model, AmplifyTests.ReadAction read)
        {
            int all = (n - 8) / elem.Length;
            int max = Math.Min(all, AmplifyTests.MaxCount(n, model));
            AmplifyTests.Measure(name + " max " + n / MiB + " MB", ListOf(n, max, elem), read, true);
            if (max < all)
            {
                AmplifyTests.Measure(name + " all " + n / MiB + " MB", ListOf(n, all, elem), read, false);
            }
        }

        public static void BudgetBoundsAllocation()
        {
            var empty = new byte[] { 0, 0, 0, 0 };
            foreach (int n in new[] { 1 * MiB, 4 * MiB })
            {
                // The models, as docs/security.md states them: a struct its fields (an
                // empty one a byte), an array its elements and 40 bytes, a message
                // its fields and 24 bytes.
                Shape("WithEmpties", n, new byte[] { 7 }, 2, (ref PktReader r) => WithEmpties.ReadFrom(ref r));
                Shape("OneByteArrays", n, new byte[] { 7 }, 41, (ref PktReader r) => OneByteArrays.ReadFrom(ref r));
                Shape("NestedArrays", n, new byte[] { 7 }, 4 * 40 + 1, (ref PktReader r) => NestedArrays.ReadFrom(ref r));
                Shape("Chains", n, new byte[] { 1, 2 }, 42, (ref PktReader r) => Chains.ReadFrom(ref r));
                Shape("SparseMaps", n, new byte[] { 1, 0, 0, 0, 5, 0 }, 11 * (1 + 32816) + 40, (ref PktReader r) => SparseMaps.ReadFrom(ref r));
                Shape("ManyOptionals", n, empty, 8000 * 8 + 40 + 24, (ref PktReader r) => ManyOptionals.ReadFrom(ref r));
                Shape("ManyStrings", n, empty, 2600 * 24 + 40 + 24, (ref PktReader r) => ManyStrings.ReadFrom(ref r));
                Shape("ManyNumbers", n, empty, 8000 * 8 + 40 + 24, (ref PktReader r) => ManyNumbers.ReadFrom(ref r));
            }
        }

        public static void LongArrayDefaults()
        {
            // Written as a loop (Pkt.PktArrays), not 1,000 initialisers.
            var m = new Modes();
            Check.Equal(1000, m.ModesValue.Length, "length");
            foreach (var mode in m.ModesValue) Check.Equal(Mode.On, mode, "the first value is the default");
            Check.Equal(20, m.Names.Length, "strings");
            foreach (var name in m.Names) Check.Equal("", name, "empty strings");
            var back = Modes.Decode(m.ToArray());
            Check.Equal(Mode.On, back.ModesValue[999], "decoded");
        }
    }
}
