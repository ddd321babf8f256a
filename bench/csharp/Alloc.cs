// The allocation scenarios of seed articles 000 (MessagePack-CSharp) and 001
// (MemoryPack), for pktc's generated C#: bytes allocated per call
// (GC.GetAllocatedBytesForCurrentThread), collections per generation, and
// the size of `new byte[n]` for the result on this runtime, so "exactly the
// result array" can be checked.

using System;
using System.Diagnostics;
using System.Threading;
using Seeds.Small;
using Seeds.World;

namespace PktBench
{
    public static class Alloc
    {
        /// <summary>Keeps results reachable so no call is optimised away.</summary>
        public static object sink;
        /// <summary>As <see cref="sink"/>, for a struct result without boxing it.</summary>
        public static Seeds.Packets.TransformPacket transformSink;

        struct Result
        {
            public double BytesPerOp;
            public long Gen0, Gen1, Gen2;
            public double NsPerOp;
        }

        static Result Measure(Action op, int warmup, int calls)
        {
            for (int i = 0; i < warmup; i++) op();
            long g0 = GC.CollectionCount(0), g1 = GC.CollectionCount(1), g2 = GC.CollectionCount(2);
            var sw = Stopwatch.StartNew();
            long before = GC.GetAllocatedBytesForCurrentThread();
            for (int i = 0; i < calls; i++) op();
            long after = GC.GetAllocatedBytesForCurrentThread();
            sw.Stop();
            return new Result
            {
                BytesPerOp = (double)(after - before) / calls,
                Gen0 = GC.CollectionCount(0) - g0,
                Gen1 = GC.CollectionCount(1) - g1,
                Gen2 = GC.CollectionCount(2) - g2,
                NsPerOp = sw.ElapsedTicks * (1e9 / Stopwatch.Frequency) / calls,
            };
        }

        /// <summary>What `new byte[n]` allocates on this runtime (header + data, rounded).</summary>
        static double ArrayBytes(int n)
        {
            return Measure(() => { sink = new byte[n]; }, 100, 1000).BytesPerOp;
        }

        static void Row(Emitter emit, string id, Result r, double expected, int resultBytes, int calls)
        {
            emit("alloc", id, r.BytesPerOp, expected, resultBytes, r.Gen0, r.Gen1, r.Gen2, r.NsPerOp, calls);
        }

        static Small NewSmall()
        {
            return new Small { Id = 1, Name = "hello" };
        }

        static WorldSnapshot NewWorld()
        {
            var w = new WorldSnapshot();
            for (int i = 0; i < 30000; i++) w.Cells.Add(i * 7 - 1000);
            return w;
        }

        static void OnNewThread(ThreadStart body)
        {
            var t = new Thread(body);
            t.Start();
            t.Join();
        }

        static long Once(Action op)
        {
            long before = GC.GetAllocatedBytesForCurrentThread();
            op();
            return GC.GetAllocatedBytesForCurrentThread() - before;
        }

        /// <summary>
        /// First calls in the process: nothing has used Small, PktWriter or
        /// PktReader yet. Seed 000's "first Serialize of a new type" and seed
        /// 001's "first call on a thread".
        /// </summary>
        public static void ColdFirstCalls(Emitter emit)
        {
            long first = 0, second = 0, firstDecode = 0, secondDecode = 0;
            int len = 0;
            OnNewThread(() =>
            {
                var s = NewSmall();
                byte[] bytes = null;
                first = Once(() => { bytes = s.ToArray(); });
                second = Once(() => { sink = s.ToArray(); });
                len = bytes.Length;
                firstDecode = Once(() => { sink = Small.Decode(bytes); });
                secondDecode = Once(() => { sink = Small.Decode(bytes); });
            });
            emit("alloc", "cold.small.toarray.first", (double)first, ArrayBytes(len), len, 0, 0, 0, 0.0, 1);
            emit("alloc", "cold.small.toarray.second", (double)second, ArrayBytes(len), len, 0, 0, 0, 0.0, 1);
            emit("alloc", "cold.small.decode.first", (double)firstDecode, -1.0, len, 0, 0, 0, 0.0, 1);
            emit("alloc", "cold.small.decode.second", (double)secondDecode, -1.0, len, 0, 0, 0, 0.0, 1);
        }

        public static void Run(Emitter emit)
        {
            const int Warm = 20000, Calls = 500000;

            // Calibration: the counter reads 0 for nothing, and `new byte[n]`
            // is header + n rounded up on this runtime.
            Row(emit, "calib.empty", Measure(() => { }, Warm, Calls), 0, 0, Calls);
            Row(emit, "calib.byte16", Measure(() => { sink = new byte[16]; }, Warm, Calls), -1, 16, Calls);
            Row(emit, "calib.byte1024", Measure(() => { sink = new byte[1024]; }, Warm, 100000), -1, 1024, 100000);

            // A new thread, types already warm on the main thread: the first
            // and second ToArray (MemoryPack: 262,536 B then 48 B).
            {
                var s = NewSmall();
                sink = s.ToArray();
                long first = 0, second = 0;
                OnNewThread(() =>
                {
                    first = Once(() => { sink = s.ToArray(); });
                    second = Once(() => { sink = s.ToArray(); });
                });
                int len = s.GetEncodedSize();
                emit("alloc", "thread.small.toarray.first", (double)first, ArrayBytes(len), len, 0, 0, 0, 0.0, 1);
                emit("alloc", "thread.small.toarray.second", (double)second, ArrayBytes(len), len, 0, 0, 0, 0.0, 1);
                var p = new Seeds.Packets.Int3Packet { Size = 16, Id = 2345, X = 10, Y = 102030, Z = 99999999 };
                sink = p.ToArray();
                long fixedFirst = 0;
                OnNewThread(() => { fixedFirst = Once(() => { sink = p.ToArray(); }); });
                emit("alloc", "thread.int3.toarray.first", (double)fixedFirst, ArrayBytes(16), 16, 0, 0, 0, 0.0, 1);
            }

            // Small {1, "hello"}: seed 000's Small, seed 001's 18-byte packet.
            {
                var s = NewSmall();
                int len = s.GetEncodedSize();
                byte[] bytes = s.ToArray();
                var buffer = new byte[1024];
                var writer = new ReusableWriter(1024);
                Row(emit, "small.toarray", Measure(() => { sink = s.ToArray(); }, Warm, Calls), ArrayBytes(len), len, Calls);
                Row(emit, "small.encode_span", Measure(() => { s.Encode(buffer.AsSpan(100)); }, Warm, Calls), 0, len, Calls);
                Row(emit, "small.encode_writer", Measure(() => { writer.Reset(); s.Encode(writer); }, Warm, Calls), 0, len, Calls);
                double objects = Measure(() => { sink = new Small { Id = 1, Name = new string('h', 5) }; }, Warm, Calls).BytesPerOp;
                Row(emit, "small.decode", Measure(() => { sink = Small.Decode(bytes); }, Warm, Calls), objects, len, Calls);
                var target = NewSmall();
                Row(emit, "small.decode_into", Measure(() => { target.DecodeInto(bytes); }, Warm, Calls), 0, len, Calls);
            }

            // The fixed-size seed packets.
            {
                var t = Seed004.Methods.pkTransform;
                var buffer = new byte[1024];
                Row(emit, "transform.toarray", Measure(() => { sink = t.ToArray(); }, Warm, Calls), ArrayBytes(40), 40, Calls);
                Row(emit, "transform.encode_span", Measure(() => { t.Encode(buffer.AsSpan(100)); }, Warm, Calls), 0, 40, Calls);
                byte[] bytes = t.ToArray();
                // Into a field of the struct type: boxing it would allocate.
                Row(emit, "transform.decode", Measure(() => { transformSink = Seeds.Packets.TransformPacket.Decode(bytes); }, Warm, Calls), 0, 40, Calls);
            }

            // WorldSnapshot with 30,000 cells (the List<int> case), ~120 KB.
            {
                var w = NewWorld();
                int len = w.GetEncodedSize();
                byte[] bytes = w.ToArray();
                var writer = new ReusableWriter(256 * 1024);
                var buffer = new byte[256 * 1024];
                Row(emit, "world.toarray", Measure(() => { sink = w.ToArray(); }, 20, 200), ArrayBytes(len), len, 200);
                Row(emit, "world.encode_writer", Measure(() => { writer.Reset(); w.Encode(writer); }, 20, 200), 0, len, 200);
                Row(emit, "world.encode_span", Measure(() => { w.Encode(buffer.AsSpan(100)); }, 20, 200), 0, len, 200);
                double list = Measure(() =>
                {
                    var l = new System.Collections.Generic.List<int>(30000);
                    for (int i = 0; i < 30000; i++) l.Add(i);
                    sink = new WorldSnapshot { Cells = l };
                }, 5, 50).BytesPerOp;
                Row(emit, "world.decode", Measure(() => { sink = WorldSnapshot.Decode(bytes); }, 20, 200), list, len, 200);
                var target = NewWorld();
                Row(emit, "world.decode_into", Measure(() => { target.DecodeInto(bytes); }, 20, 200), 0, len, 200);

                // 2,000 repetitions of the 120 KB case: collections per generation.
                GC.Collect();
                Row(emit, "world.toarray.x2000", Measure(() => { sink = w.ToArray(); }, 0, 2000), ArrayBytes(len), len, 2000);
                GC.Collect();
                Row(emit, "world.encode_writer.x2000", Measure(() => { writer.Reset(); w.Encode(writer); }, 0, 2000), 0, len, 2000);
            }
            sink = null;
        }
    }
}
