// Allocation figures, measured with GC.GetAllocatedBytesForCurrentThread().
// Every figure is printed as "alloc <what>: <n> B" so reports can quote it.
using System;
using System.Collections.Generic;
using Pkt;

namespace PktTests
{
    public static class AllocTests
    {
        private static long Now() { return GC.GetAllocatedBytesForCurrentThread(); }

        private static void Report(string what, long bytes)
        {
            Console.WriteLine("alloc " + what + ": " + bytes + " B");
        }

        /// <summary>Bytes per call after one warm-up call, averaged over <paramref name="n"/> calls.</summary>
        internal static long PerCall(Action a, int n)
        {
            a();
            long before = Now();
            for (int i = 0; i < n; i++) a();
            return (Now() - before) / n;
        }

        private static long ArrayCost(int length)
        {
            long before = Now();
            var a = new byte[length];
            long after = Now();
            GC.KeepAlive(a);
            return after - before;
        }

        public static void FirstCalls()
        {
            // The very first encode and decode in the process (runtime code included).
            var small = new Seeds.Small.Small { Id = 1, Name = "hi" };
            long before = Now();
            var bytes = small.ToArray();
            long toArray = Now() - before;
            Report("first ToArray(Small) in the process", toArray);
            Report("new byte[" + bytes.Length + "] (reference)", ArrayCost(bytes.Length));

            before = Now();
            var back = Seeds.Small.Small.Decode(bytes);
            long decode = Now() - before;
            Report("first Decode(Small) in the process", decode);
            Check.Equal("hi", back.Name, "decoded");

            // A type never used before, after the runtime has been used once.
            var person = new Seeds.Person.Person { Age = 30, Name = "hi" };
            before = Now();
            var pbytes = person.ToArray();
            long pToArray = Now() - before;
            Report("first ToArray(Person), a fresh type", pToArray);
            Check.Equal(ArrayCost(pbytes.Length), pToArray, "fresh type: ToArray allocates only its result");

            before = Now();
            var pback = Seeds.Person.Person.Decode(pbytes);
            long pDecode = Now() - before;
            Report("first Decode(Person), a fresh type", pDecode);
            before = Now();
            var expected = new Seeds.Person.Person();
            expected.Name = new string('h', 2);
            long resultCost = Now() - before;
            GC.KeepAlive(expected);
            Report("the result objects alone (new Person + 2-char string)", resultCost);
            Check.Equal(resultCost, pDecode, "fresh type: Decode allocates only the result");
            Check.Equal(30, pback.Age, "decoded");

            var int3 = new Seeds.Packets.Int3Packet { Size = 16, Id = 2, X = 1, Y = 2, Z = 3 };
            var buf = new byte[16];
            before = Now();
            int3.Encode(buf);
            var int3back = Seeds.Packets.Int3Packet.Decode(buf);
            long int3First = Now() - before;
            Report("first Encode(Span)+Decode(Int3Packet), a fresh struct", int3First);
            // Mono 6.8 allocates 48 B once when it first compiles a struct method
            // that passes a Span to another method (reproducible without pktc;
            // class methods do not). Bounded here, reported above.
            Check.True(int3First <= 2 * 48, "fresh struct: only the one-time JIT cost");
            Check.Equal(3, int3back.Z, "decoded");
        }

        public static void SteadyState()
        {
            var transform = new Seeds.Packets.TransformPacket { Size = 40, Id = 3, PosX = 1, ScaleZ = 9 };
            var small = new Seeds.Small.Small { Id = 1, Name = "hi" };
            var everything = Fixtures.MakeEverything();
            var buffer = new byte[1 << 20];
            var writer = new ReusableBufferWriter(1 << 20);

            long v;
            v = PerCall(() => transform.Encode(buffer), 1000);
            Report("Encode(Span)(TransformPacket)", v);
            Check.Equal(0L, v, "Encode(Span) TransformPacket");
            v = PerCall(() => small.Encode(buffer), 1000);
            Report("Encode(Span)(Small)", v);
            Check.Equal(0L, v, "Encode(Span) Small");
            v = PerCall(() => everything.Encode(buffer), 100);
            Report("Encode(Span)(Everything)", v);
            Check.Equal(0L, v, "Encode(Span) Everything");

            v = PerCall(() => { writer.Reset(); transform.Encode(writer); }, 1000);
            Report("Encode(IBufferWriter)(TransformPacket)", v);
            Check.Equal(0L, v, "Encode(IBufferWriter) TransformPacket");
            v = PerCall(() => { writer.Reset(); small.Encode(writer); }, 1000);
            Report("Encode(IBufferWriter)(Small)", v);
            Check.Equal(0L, v, "Encode(IBufferWriter) Small");
            v = PerCall(() => { writer.Reset(); everything.Encode(writer); }, 100);
            Report("Encode(IBufferWriter)(Everything)", v);
            Check.Equal(0L, v, "Encode(IBufferWriter) Everything");
            v = PerCall(() => { everything.GetEncodedSize(); }, 100);
            Report("GetEncodedSize(Everything)", v);
            Check.Equal(0L, v, "GetEncodedSize");

            Report("new byte[40] (reference)", ArrayCost(40));
            v = PerCall(() => transform.ToArray(), 1000);
            Report("ToArray(TransformPacket)", v);
            Check.Equal(ArrayCost(40), v, "ToArray TransformPacket is one array");
            v = PerCall(() => small.ToArray(), 1000);
            Report("ToArray(Small)", v);
            Check.Equal(ArrayCost(14), v, "ToArray Small is one array");
            int esize = everything.GetEncodedSize();
            v = PerCall(() => everything.ToArray(), 100);
            Report("ToArray(Everything, " + esize + " B)", v);
            Check.Equal(ArrayCost(esize), v, "ToArray Everything is one array");

            var tbytes = transform.ToArray();
            v = PerCall(() => Seeds.Packets.TransformPacket.Decode(tbytes), 1000);
            Report("Decode(TransformPacket)", v);
            Check.Equal(0L, v, "struct decode");
            var sbytes = small.ToArray();
            long resultCost = PerCall(() => { var s = new Seeds.Small.Small(); s.Name = new string('h', 2); }, 1000);
            v = PerCall(() => Seeds.Small.Small.Decode(sbytes), 1000);
            Report("Decode(Small)", v);
            Report("new Small + 2-char string (reference)", resultCost);
            Check.Equal(resultCost, v, "Decode Small allocates only the result");

            // DecodeInto a same-shaped message: nothing.
            var target = new Seeds.Small.Small();
            target.DecodeInto(sbytes);
            v = PerCall(() => target.DecodeInto(sbytes), 1000);
            Report("DecodeInto(Small, equal ASCII string)", v);
            Check.Equal(0L, v, "DecodeInto Small");

            var tree = Fixtures.MakeTree(1, 8).ToArray();
            var treeTarget = new Test.Everything.TreeNode();
            v = PerCall(() => treeTarget.DecodeInto(tree), 1000);
            Report("DecodeInto(TreeNode with 8 children)", v);
            Check.Equal(0L, v, "DecodeInto TreeNode");

            var lr = new Game.Net.LoginResult { PlayerId = 7, SessionToken = new byte[32], RefusalText = "no", Motd = "welcome" };
            lr.FriendsOnline.Add("alice");
            lr.FriendsOnline.Add("bob");
            lr.Spawn = new Game.Net.PlayerSpawn { Team = Game.Common.Team.Red };
            var sp = new Game.Net.ServerPacket.LoginResult(lr);
            var lrBytes = lr.ToArray();
            var lrTarget = new Game.Net.LoginResult();
            v = PerCall(() => lrTarget.DecodeInto(lrBytes), 1000);
            Report("DecodeInto(LoginResult: optionals, list<string>, nested message)", v);
            Check.Equal(0L, v, "DecodeInto LoginResult");

            var world = new Seeds.World.WorldSnapshot();
            for (int i = 0; i < 30000; i++) world.Cells.Add(i);
            var wbytes = world.ToArray();
            var wTarget = new Seeds.World.WorldSnapshot();
            v = PerCall(() => wTarget.DecodeInto(wbytes), 20);
            Report("DecodeInto(WorldSnapshot, 30,000 cells)", v);
            Check.Equal(0L, v, "DecodeInto WorldSnapshot");
            v = PerCall(() => world.ToArray(), 20);
            Report("ToArray(WorldSnapshot, 30,000 cells)", v);
            Check.Equal(ArrayCost(wbytes.Length), v, "one array for 120 KB");
            v = PerCall(() => Seeds.World.WorldSnapshot.Decode(wbytes), 20);
            Report("Decode(WorldSnapshot, 30,000 cells)", v);
            long cellsArray = PerCall(() => new int[30000].GetHashCode(), 20);
            // The object, its list and one right-sized backing array: the list
            // is sized from the checked count, not grown by doubling.
            Check.True(v < cellsArray + 1024, "Decode allocates the cells once: " + v + " B vs " + cellsArray + " B for int[30000]");

            var inv = new Seeds.Chat.Inventory { OwnerId = 1 };
            for (int i = 0; i < 100; i++) inv.Slots.Add(new Seeds.Chat.ItemSlot { Slot = (ushort)i });
            var invBytes = inv.ToArray();
            var invTarget = new Seeds.Chat.Inventory();
            v = PerCall(() => invTarget.DecodeInto(invBytes), 100);
            Report("DecodeInto(Inventory, 100 slots)", v);
            Check.Equal(0L, v, "DecodeInto Inventory");

            var frame = sp.ToArray();
            var reader = new PktFrameReader<Game.Net.ServerPacket>(Game.Net.ServerPacket.ReadFrom);
            Game.Net.ServerPacket got;
            v = PerCall(() => { reader.Push(frame); reader.TryRead(out got); }, 1000);
            Report("PktFrameReader push+read(ServerPacket.LoginResult)", v);
        }
    }
}
