import { RouteLoading } from "@/components/console/shell/RouteStates";

export default function ConsoleLoading() {
  return <RouteLoading />;
}
