// Code written against version 1 of schemas/evolution that keeps compiling
// against version 2 (appended fields, new variants, a new enum value, a
// deprecation), as docs/evolution.md says of C# ("What a change does to your
// source"): initializers leave new fields at their defaults, and switches
// and is/as chains take what they do not know to their default branch or
// past every test.
namespace Client
{
    using Evo.Protocol;

    public static class Uses
    {
        public static Profile Make()
        {
            return new Profile { Id = 1, Name = "ann", Class = Class.Mage, LegacyScore = 7 }; // CS0612 in version 2
        }

        public static string Describe(Event e)
        {
            var join = e as Event.Join;
            if (join != null)
            {
                return "join " + join.Value.Name;
            }
            var leave = e as Event.Leave;
            if (leave != null)
            {
                return "leave " + leave.Value;
            }
            return "something newer";
        }

        public static string Kind(Event e)
        {
            switch (e.Tag)
            {
                case 1:
                    return "join";
                case 2:
                    return "leave";
                default:
                    return "something newer";
            }
        }

        public static int Number(Class c)
        {
            switch (c)
            {
                case Class.Warrior:
                    return 1;
                case Class.Mage:
                    return 2;
                default:
                    return 0;
            }
        }

        public static bool IsJoin(Event e)
        {
            return e is Event.Join;
        }
    }
}
