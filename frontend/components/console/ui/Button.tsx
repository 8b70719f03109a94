import type { ButtonHTMLAttributes } from "react";

import styles from "./forms.module.css";

type Variant = "primary" | "secondary" | "danger";

interface ButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  variant?: Variant;
  small?: boolean;
}

export function Button({
  variant = "secondary",
  small = false,
  className = "",
  type = "button",
  ...rest
}: ButtonProps) {
  const classes = [
    styles.button,
    variant === "primary" ? styles.primary : "",
    variant === "danger" ? styles.danger : "",
    small ? styles.small : "",
    className,
  ];
  return <button type={type} className={classes.filter(Boolean).join(" ")} {...rest} />;
}
