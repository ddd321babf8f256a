// Lists of numbers, which the runtime writes after one range check
// (PktWriter.WriteList) and reads with one copy into the list's array on
// little-endian hosts (PktBulk, from PktBulk.MinCount elements) or element
// by element: both paths give the same values and errors, decode into a
// reused list replaces its elements, and threads decoding at once fall back
// instead of sharing the copy.
using System;
using System.Collections.Generic;
using System.Threading;
using Pkt;
using Test.Everything;

namespace PktTests
{
    public static class ListTests
    {
        private static Everything WithLists(int n)
        {
            var e = new Everything();
            for (int i = 0; i < n; i++)
            {
                e.ListU8.Add((byte)(i * 7));
                e.ListI64.Add(i % 2 == 0 ? long.MinValue + i : long.MaxValue - i);
                e.ListF32.Add(i == 3 ? float.NaN : i == 4 ? -0f : i * 0.5f - 1000f);
                e.ListBool.Add(i % 3 == 0);
                e.BoundedList.Add(i * -12345);
            }
            return e;
        }

        /// <summary>Below, at and above the bulk threshold: the same values back, and the same bytes again.</summary>
        public static void BothPaths()
        {
            // Mono hands AddRange's collection the list's own array, so the copy path is taken here.
            Check.Equal(BitConverter.IsLittleEndian, PktBulk<int>.Available, "one copy on this host");
            Check.Equal(BitConverter.IsLittleEndian, PktBulk<long>.Available, "one copy on this host, long");
            foreach (int n in new[] { 0, 1, PktBulk<int>.MinCount - 1, PktBulk<int>.MinCount, 1000 })
            {
                var e = WithLists(n);
                var bytes = e.ToArray();
                var back = Everything.Decode(bytes);
                Check.Equal(n, back.ListI64.Count, "count " + n);
                for (int i = 0; i < n; i++)
                {
                    Check.Equal(e.ListU8[i], back.ListU8[i], "u8 " + i);
                    Check.Equal(e.ListI64[i], back.ListI64[i], "i64 " + i);
                    Check.Equal(BitConverter.SingleToInt32Bits(e.ListF32[i]), BitConverter.SingleToInt32Bits(back.ListF32[i]), "f32 bits " + i);
                    Check.Equal(e.ListBool[i], back.ListBool[i], "bool " + i);
                    Check.Equal(e.BoundedList[i], back.BoundedList[i], "i32 " + i);
                }
                Check.Bytes(bytes, back.ToArray(), "re-encoded, " + n);
                // Decoded lists are sized exactly once.
                if (n > 0) Check.Equal(n, back.ListI64.Capacity, "capacity " + n);
            }
        }

        /// <summary>DecodeInto replaces the elements of the lists it reuses, longer or shorter.</summary>
        public static void DecodeIntoReplaces()
        {
            var target = WithLists(1000);
            var list = target.ListI64;
            foreach (int n in new[] { 20, 1000, 3, 0, 999 })
            {
                var source = WithLists(n);
                for (int i = 0; i < n; i++) source.ListI64[i] = i * 3 + n;
                target.DecodeInto(source.ToArray());
                Check.True(ReferenceEquals(list, target.ListI64), "the list is reused");
                Check.Equal(n, target.ListI64.Count, "count " + n);
                for (int i = 0; i < n; i++) Check.Equal((long)(i * 3 + n), target.ListI64[i], "element " + i + " of " + n);
            }
        }

        /// <summary>An invalid bool in a list, in either path, at its own offset.</summary>
        public static void InvalidBool()
        {
            foreach (int n in new[] { 5, 40 })
            {
                var e = new Everything();
                for (int i = 0; i < n; i++) e.ListBool.Add(true);
                var bytes = e.ToArray();
                int start = FindRun(bytes, n);
                Check.True(start >= 0, "the list's bytes");
                bytes[start + n - 2] = 2;
                var err = Check.Fails(PktDecodeReason.InvalidBool, () => Everything.Decode(bytes), "bool 2 in " + n);
                Check.Equal((long)(start + n - 2), err.Offset, "offset of the bad bool");
            }
        }

        /// <summary>A count larger than the input is refused before anything is read or allocated.</summary>
        public static void CountBeyondInput()
        {
            var e = WithLists(30);
            var bytes = e.ToArray();
            var cut = new byte[bytes.Length - 1];
            Array.Copy(bytes, cut, cut.Length);
            Check.True(!Check.DecodesOrRejects(() => Everything.Decode(cut), "cut"), "a cut list is rejected");
        }

        /// <summary>Threads decoding lists at once all get their own values.</summary>
        public static void Concurrent()
        {
            var inputs = new byte[4][];
            for (int t = 0; t < inputs.Length; t++)
            {
                var w = new Seeds.World.WorldSnapshot();
                for (int i = 0; i < 5000; i++) w.Cells.Add(i * (t + 1));
                inputs[t] = w.ToArray();
            }
            var errors = new List<string>();
            var threads = new Thread[inputs.Length];
            for (int t = 0; t < threads.Length; t++)
            {
                int id = t;
                threads[t] = new Thread(() =>
                {
                    for (int round = 0; round < 200; round++)
                    {
                        var w = Seeds.World.WorldSnapshot.Decode(inputs[id]);
                        for (int i = 0; i < w.Cells.Count; i += 97)
                        {
                            if (w.Cells[i] != i * (id + 1))
                            {
                                lock (errors) errors.Add("thread " + id + " element " + i + ": " + w.Cells[i]);
                                return;
                            }
                        }
                    }
                });
                threads[t].Start();
            }
            foreach (var t in threads) t.Join();
            Check.Equal(0, errors.Count, string.Join("; ", errors.ToArray()));
        }

        private static int FindRun(byte[] bytes, int n)
        {
            for (int i = 4; i + n <= bytes.Length; i++)
            {
                if (BitConverter.ToInt32(bytes, i - 4) != n) continue;
                bool run = true;
                for (int k = 0; k < n && run; k++) run = bytes[i + k] == 1;
                if (run) return i;
            }
            return -1;
        }
    }
}
