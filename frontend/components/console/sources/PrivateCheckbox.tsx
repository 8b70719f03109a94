import { Checkbox } from "@/components/console/ui/Checkbox";

export function PrivateCheckbox({
  checked,
  onChange,
}: {
  checked: boolean;
  onChange: (on: boolean) => void;
}) {
  return (
    <Checkbox checked={checked} onChange={onChange}>
      Private (cited by its title, without a link)
    </Checkbox>
  );
}
