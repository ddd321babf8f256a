// Deltas of schemas/delta.pkt in this harness, so that the unsafe and
// full-AOT runs apply them too: every section of a map delta, nested
// patches, whole values and a map grown past its arrays, in one apply
// (the agreement with Rust is rust-tests/tests/delta_csharp.rs).
using System;
using Test.Delta;

namespace PktTests
{
    public static class DeltaTests
    {
        private static Entity Make(uint id)
        {
            var e = new Entity();
            e.Pos = new Vec3 { X = id, Y = 1, Z = -2.5f };
            e.Health = 100;
            e.Name = "e" + id;
            e.Tags.Add("a", 1);
            e.Tags.Add("b", 2);
            return e;
        }

        public static void EverySectionInOneApply()
        {
            var baseline = new World();
            var target = new World();
            for (uint i = 0; i < 40; i++)
            {
                baseline.Entities.Add(i, Make(i));
                if (i % 4 != 1) target.Entities.Add(i, Make(i));
            }
            for (uint i = 100; i < 140; i++) target.Entities.Add(i, Make(i));
            target.Entities[0].Pos = new Vec3 { X = 8.5f, Y = 1, Z = -2.5f };
            target.Entities[2].Stats.Pos = new Vec3 { X = 0, Y = 2, Z = 0 };
            target.Entities[3].Tags.Remove("a");
            target.Entities[3].Tags.Add("c", 3);
            target.Entities[3].Tags["b"] = 4;
            target.Entities[39].Health = 5;
            target.Scores.Add(7, -3);
            target.Tick = 2;
            var delta = target.EncodeDelta(baseline);
            long before = Pkt.PktMapMoves.Count;
            baseline.ApplyDelta(delta);
            Check.True(baseline.Equals(target), "applied: " + baseline + " != " + target);
            Check.Bytes(target.ToArray(), baseline.ToArray(), "encoding");
            // 10 removed, 40 added after them: the 30 kept entries move down
            // once, and the map grows once.
            long moves = Pkt.PktMapMoves.Count - before;
            Check.True(moves <= 2 * 70, "entries moved: " + moves);
            Check.Bytes(new byte[] { 1, 0, 0, 0, 0 }, target.EncodeDelta(baseline), "nothing left to send");
            // A failed apply leaves the value as it was.
            var cut = new byte[delta.Length - 1];
            Array.Copy(delta, cut, cut.Length);
            Check.True(!Check.DecodesOrRejects(() => baseline.ApplyDelta(cut), "cut delta"), "cut delta rejected");
            Check.True(baseline.Equals(target), "unchanged after an error");
        }
    }
}
